// DELETE /api/v2/sessions/{sessionId}: ends one live session, the caller's own or, with session:revoke-others, a
// fellow member's; another organisation's is not visible.
import { createRoute, z } from "@hono/zod-openapi";
import { isMember } from "../../host/auth/memberships.ts";
import { hasPermission } from "../../host/auth/permissions.ts";
import { revokeSession } from "../../host/auth/sessions.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import type { AuthRouteDeps } from "./route-deps.ts";
import { ok } from "./route-shapes.ts";
import { SessionRevokeResultSchema } from "./schemas.ts";

const revoke = createRoute({
  method: "delete",
  path: "/api/v2/sessions/{sessionId}",
  tags: ["auth"],
  summary: "End one live session (your own, or a member's as owner or admin)",
  request: {
    params: z.object({ sessionId: z.string().min(1).max(64) }),
    headers: z.object({ "idempotency-key": z.string().max(255).optional(), prefer: z.string().optional() }),
  },
  responses: ok(SessionRevokeResultSchema, "Revoked (repeating it answers the same)"),
});

export function revokeSessionRoute(app: App, { db }: AuthRouteDeps) {
  app.openapi(revoke, async (c) => {
    const principal = c.get("principal");
    if (principal.kind !== "session")
      throw new ApiError("SESSION_POLICY_DENIED", { message: "API keys cannot end sessions" });
    const { sessionId } = c.req.valid("param");
    const target = await db
      .selectFrom("sessions")
      .select(["id", "userId"])
      .where("id", "=", sessionId)
      .executeTakeFirst();
    if (!target) throw new ApiError("USER_SECURITY_TARGET_NOT_FOUND");
    if (target.userId !== principal.userId) {
      if (!(await isMember(db, principal.organizationId, target.userId)))
        throw new ApiError("USER_SECURITY_TARGET_NOT_FOUND"); // another organisation's: not visible
      if (!hasPermission(principal.roles, "session:revoke-others"))
        throw new ApiError("SESSION_REVOCATION_NOT_AUTHORIZED");
    }
    await revokeSession(db, target.id); // idempotent: a repeat finds it revoked and answers the same
    return c.json(single(c, { success: true }), 200);
  });
}
