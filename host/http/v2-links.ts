// Links in v2 bodies are written /v2/...; the same paths resolve here (as /api/v2/...) so a client can follow them.
import type { Hono } from "hono";
import type { AppEnv } from "./env.ts";

export function followV2Links(app: Hono<AppEnv>) {
  app.all("/v2/*", (c) => {
    const url = new URL(c.req.url);
    url.pathname = `/api${url.pathname}`;
    const forwarded = new Request(url, c.req.raw);
    forwarded.headers.set("x-request-id", c.get("requestId")); // one request, one id
    return app.fetch(forwarded, c.env);
  });
}
