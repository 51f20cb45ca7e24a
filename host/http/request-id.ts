// X-Request-Id on every response: the caller's own when it is sane, else a new one.
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const id = incoming && SANE_ID.test(incoming) ? incoming : randomUUID();
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  await next();
  // Error responses are built after next(): give them the header too. Only then: c.header on a finished response
  // re-creates it around its body as a web stream, read back before it is written (~8 % of a 50-row page's CPU).
  if (c.res.headers.get("x-request-id") !== id) c.header("X-Request-Id", id);
};
