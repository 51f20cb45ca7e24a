import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { createCredentialFailures } from "../../host/auth/credential-failures.ts";
import { lockoutPolicies } from "../../host/auth/lockout-policies.ts";
import { isMember } from "../../host/auth/memberships.ts";
import { hashSecret, verifySecret } from "../../host/auth/passwords.ts";
import { hasPermission } from "../../host/auth/permissions.ts";
import { createSession, resolveSession, revokeSession, TWO_FACTOR_COOKIE } from "../../host/auth/sessions.ts";
import { attemptSignIn } from "../../host/auth/sign-in-throttle.ts";
import { verifyTotp } from "../../host/auth/totp.ts";
import { unseal } from "../../host/crypto/sealed.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { clientAddress } from "../../host/http/client-address.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import {
  CurrentSessionSchema,
  SessionRevokeResultSchema,
  SignInBodySchema,
  SignInResultSchema,
  TwoFactorBodySchema,
} from "./schemas.ts";
import { clearSessionCookies, setSessionCookie, setTwoFactorCookie } from "./session-cookies.ts";

export const PUBLIC_AUTH_PATHS = ["/api/v2/auth/sign-in", "/api/v2/auth/two-factor"];

const ok = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  200: { description, content: { "application/json": { schema: z.object({ data: schema, links: linksSelf }) } } },
  ...errorResponses,
});
const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

const signIn = createRoute({
  method: "post",
  path: "/api/v2/auth/sign-in",
  tags: ["auth"],
  summary: "Sign in with email and password (sets the session cookie, or the pending second-factor cookie)",
  security: [],
  request: jsonBody(SignInBodySchema),
  responses: ok(SignInResultSchema, "Signed in, or waiting for the second factor"),
});
const twoFactor = createRoute({
  method: "post",
  path: "/api/v2/auth/two-factor",
  tags: ["auth"],
  summary: "Verify the one-time code of a pending sign-in (reads the pending second-factor cookie)",
  security: [],
  request: jsonBody(TwoFactorBodySchema),
  responses: ok(SignInResultSchema, "Signed in"),
});
const signOut = createRoute({
  method: "post",
  path: "/api/v2/auth/sign-out",
  tags: ["auth"],
  summary: "End the current session",
  responses: ok(SessionRevokeResultSchema, "Signed out"),
});
const currentSession = createRoute({
  method: "get",
  path: "/api/v2/auth/session",
  tags: ["auth"],
  summary: "Who is calling: credential kind, user, active organisation, roles",
  responses: ok(CurrentSessionSchema, "The caller"),
});
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

// Compared against when the email is unknown, so timing does not reveal which emails exist.
const decoyHash = hashSecret("decoy password that never matches");

export function authRoutes(app: App, ctx: PluginContext<"secrets">) {
  const db = ctx.db.platform;
  const policies = lockoutPolicies(ctx.config);
  const credentialFailures = createCredentialFailures(db, policies.credential);
  const addressOf = (c: Context) => clientAddress(c, ctx.config.TRUST_PROXY);

  async function organizationFor(userId: string, requested?: string): Promise<string | null> {
    const memberships = await db
      .selectFrom("memberships")
      .select("organizationId")
      .where("userId", "=", userId)
      .execute();
    const orgs = [...new Set(memberships.map((m) => m.organizationId))];
    if (requested) {
      if (!orgs.includes(requested))
        throw new ApiError("ACTIVE_ORGANIZATION_REQUIRED", { message: "You are not a member of that organisation" });
      return requested;
    }
    return orgs[0] ?? null;
  }

  app.openapi(signIn, async (c) => {
    const { email, password, organizationId } = c.req.valid("json");
    const address = addressOf(c);
    // Counted per account (known or not, alike) and per address before the password is checked.
    const attempt = await attemptSignIn(db, [
      { scope: "sign-in:account", key: email.toLowerCase(), policy: policies.account },
      { scope: "sign-in:address", key: address, policy: policies.address },
    ]);
    const user = await db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
    const valid = await verifySecret(password, user?.passwordHash ?? (await decoyHash));
    if (!user?.passwordHash || !valid) throw new ApiError("INVALID_CREDENTIALS");
    await attempt.succeeded();
    const org = await organizationFor(user.id, organizationId);
    const meta = { ipAddress: address, userAgent: c.req.header("user-agent") };
    if (user.totpSecret) {
      const pending = await createSession(db, { userId: user.id, organizationId: org, stage: "pending-2fa", ...meta });
      setTwoFactorCookie(c, pending.token, pending.expiresAt);
      return c.json(single(c, { status: "TWO_FACTOR_REQUIRED" as const }), 200);
    }
    const session = await createSession(db, { userId: user.id, organizationId: org, stage: "active", ...meta });
    setSessionCookie(c, session.token, session.expiresAt);
    const data = {
      status: "SIGNED_IN" as const,
      sessionId: session.id,
      userId: user.id,
      organizationId: org,
      expiresAt: session.expiresAt.toISOString(),
    };
    return c.json(single(c, data), 200);
  });

  app.openapi(twoFactor, async (c) => {
    const { code } = c.req.valid("json");
    const token = getCookie(c, TWO_FACTOR_COOKIE);
    const address = addressOf(c);
    const pending = token ? await resolveSession(db, token) : undefined;
    if (pending?.stage !== "pending-2fa") {
      const invalid = new ApiError("SESSION_EVIDENCE_INVALID");
      throw token ? await credentialFailures.failed(address, invalid) : invalid;
    }
    // Counted per person (a new pending sign-in does not start the count again) and per address.
    const attempt = await attemptSignIn(db, [
      { scope: "two-factor:account", key: pending.userId, policy: policies.account },
      { scope: "sign-in:address", key: address, policy: policies.address },
    ]);
    const user = await db
      .selectFrom("users")
      .select("totpSecret")
      .where("id", "=", pending.userId)
      .executeTakeFirstOrThrow();
    const secret = user.totpSecret
      ? Buffer.from(unseal(user.totpSecret, ctx.secrets.masterKey)).toString("utf8")
      : undefined;
    if (!secret || !verifyTotp(secret, code)) throw new ApiError("TWO_FACTOR_CODE_INVALID");
    await attempt.succeeded();
    await revokeSession(db, pending.id);
    const session = await createSession(db, {
      userId: pending.userId,
      organizationId: pending.organizationId,
      stage: "active",
    });
    setSessionCookie(c, session.token, session.expiresAt);
    const data = {
      status: "SIGNED_IN" as const,
      sessionId: session.id,
      userId: pending.userId,
      organizationId: pending.organizationId,
      expiresAt: session.expiresAt.toISOString(),
    };
    return c.json(single(c, data), 200);
  });

  app.openapi(signOut, async (c) => {
    const principal = c.get("principal");
    if (principal.kind !== "session" || !principal.sessionId) throw new ApiError("SESSION_POLICY_DENIED");
    await revokeSession(db, principal.sessionId);
    clearSessionCookies(c);
    return c.json(single(c, { success: true }), 200);
  });

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
