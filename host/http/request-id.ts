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
  c.header("X-Request-Id", id); // error responses are built after next(); keep the header on them too
};
