// POST /api/v2/auth/sign-out: ends the caller's own session and clears its cookies.
import { createRoute } from "@hono/zod-openapi";
import { revokeSession } from "../../host/auth/sessions.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import type { AuthRouteDeps } from "./route-deps.ts";
import { ok } from "./route-shapes.ts";
import { SessionRevokeResultSchema } from "./schemas.ts";
import { clearSessionCookies } from "./session-cookies.ts";

const signOut = createRoute({
  method: "post",
  path: "/api/v2/auth/sign-out",
  tags: ["auth"],
  summary: "End the current session",
  responses: ok(SessionRevokeResultSchema, "Signed out"),
});

export function signOutRoute(app: App, { db }: AuthRouteDeps) {
  app.openapi(signOut, async (c) => {
    const principal = c.get("principal");
    if (principal.kind !== "session" || !principal.sessionId) throw new ApiError("SESSION_POLICY_DENIED");
    await revokeSession(db, principal.sessionId);
    clearSessionCookies(c);
    return c.json(single(c, { success: true }), 200);
  });
}
