// Refuses text the platform cannot store faithfully with BAD_REQUEST up front (host/http/request-text.ts), instead of
// failing deep in a query or storing mangled names: in the path and query, NUL; in a body, a charset other than
// UTF-8, a BOM, invalid UTF-8, JSON strings with NUL or a lone surrogate, and JSON nested too deep.
import type { MiddlewareHandler } from "hono";
import { badRequest } from "../errors/api-error.ts";
import type { AppEnv } from "./env.ts";
import { hasBody } from "./has-body.ts";
import { decodeUtf8, foreignCharset, jsonStringProblem, jsonTooDeep, MAX_JSON_DEPTH } from "./request-text.ts";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const rejectMalformedText: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname + url.search); // also refuses invalid UTF-8 and encoded surrogates
  } catch {
    throw badRequest("The URL is not valid percent-encoding");
  }
  if (decoded.includes("\0")) throw badRequest("The URL must not contain NUL characters");
  if (BODY_METHODS.has(c.req.method) && hasBody(c)) {
    const contentType = c.req.header("content-type");
    const charset = foreignCharset(contentType);
    if (charset) throw badRequest(`The body must be UTF-8: Content-Type names charset=${charset}`);
    if (contentType?.includes("json")) {
      const decodedBody = decodeUtf8(new Uint8Array(await c.req.arrayBuffer()));
      if ("problem" in decodedBody) throw badRequest(decodedBody.problem);
      // The route's validator parses this text (HonoRequest's cache, which holds promises despite its type) instead
      // of decoding the bytes again.
      (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(decodedBody.text);
      // REST and /api/rpc alike: this is the one depth limit of both transports.
      if (jsonTooDeep(decodedBody.text)) throw badRequest(`The body nests deeper than ${MAX_JSON_DEPTH} levels`);
      const problem = jsonStringProblem(decodedBody.text);
      if (problem) throw badRequest(`The body's strings ${problem}`);
    }
  }
  await next();
};
