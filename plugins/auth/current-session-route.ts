// GET /api/v2/auth/session: who is calling, as the authentication middleware resolved it.
import { createRoute } from "@hono/zod-openapi";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { ok } from "./route-shapes.ts";
import { CurrentSessionSchema } from "./schemas.ts";

const currentSession = createRoute({
  method: "get",
  path: "/api/v2/auth/session",
  tags: ["auth"],
  summary: "Who is calling: credential kind, user, active organisation, roles",
  responses: ok(CurrentSessionSchema, "The caller"),
});

export function currentSessionRoute(app: App) {
  app.openapi(currentSession, (c) => {
    const p = c.get("principal");
    const data = {
      kind: p.kind,
      userId: p.userId,
      organizationId: p.organizationId,
      roles: p.roles,
      scope: p.scope,
      sessionId: p.sessionId ?? null,
    };
    return c.json(single(c, data), 200);
  });
}
