// A request answered before its body was read (an early 401, say) gets `Connection: close`: the node server
// discards such a socket, and a client reusing it for keep-alive would see its next request reset.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import { hasBody } from "./has-body.ts";

export const closeUnreadBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  // bodyUsed first: a body the node server read directly would otherwise be wrapped in a fetch Request just to ask.
  if (hasBody(c) && !c.req.raw.bodyUsed && c.req.raw.body !== null) c.header("Connection", "close");
};
