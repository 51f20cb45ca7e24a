// PostgreSQL text cannot hold NUL (U+0000): a request carrying one in its path, query or JSON body is refused
// up front with BAD_REQUEST, instead of failing deep in a query.
import type { MiddlewareHandler } from "hono";
import { badRequest } from "../errors/api-error.ts";
import type { AppEnv } from "./env.ts";

const ESCAPED_NUL = /\\u0000/i;

/** Whether the JSON text decodes to a NUL anywhere (a literal backslash followed by u0000 is not one). */
function containsNul(text: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)).includes("\\u0000");
  } catch {
    return false; // not JSON: the route's validator answers
  }
}

export const rejectNul: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname + url.search);
  } catch {
    throw badRequest("The URL is not valid percent-encoding");
  }
  if (decoded.includes("\0")) throw badRequest("The URL must not contain NUL characters");
  if (["POST", "PUT", "PATCH", "DELETE"].includes(c.req.method) && c.req.header("content-type")?.includes("json")) {
    const text = await c.req.text(); // cached: the route's validator reads the same body
    if (text.includes("\0") || (ESCAPED_NUL.test(text) && containsNul(text))) {
      throw badRequest("The body must not contain NUL characters");
    }
  }
  await next();
};
