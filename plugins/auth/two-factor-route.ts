// POST /api/v2/auth/two-factor: the one-time code of a pending sign-in (its cookie), throttled per person and per
// address; replaces the pending session with an active one.
import { createRoute } from "@hono/zod-openapi";
import { getCookie } from "hono/cookie";
import { createSession, resolveSession, revokeSession, TWO_FACTOR_COOKIE } from "../../host/auth/sessions.ts";
import { attemptSignIn } from "../../host/auth/sign-in-throttle.ts";
import { verifyTotp } from "../../host/auth/totp.ts";
import { unseal } from "../../host/crypto/sealed.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import type { AuthRouteDeps } from "./route-deps.ts";
import { jsonBody, ok } from "./route-shapes.ts";
import { SignInResultSchema, TwoFactorBodySchema } from "./schemas.ts";
import { setSessionCookie } from "./session-cookies.ts";
import { signedIn } from "./signed-in.ts";

export const TWO_FACTOR_PATH = "/api/v2/auth/two-factor";

const twoFactor = createRoute({
  method: "post",
  path: TWO_FACTOR_PATH,
  tags: ["auth"],
  summary: "Verify the one-time code of a pending sign-in (reads the pending second-factor cookie)",
  security: [],
  request: jsonBody(TwoFactorBodySchema),
  responses: ok(SignInResultSchema, "Signed in"),
});

export function twoFactorRoute(app: App, { db, policies, credentialFailures, addressOf, secrets }: AuthRouteDeps) {
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
      ? Buffer.from(unseal(user.totpSecret, secrets.masterKey)).toString("utf8")
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
    return c.json(single(c, signedIn(session, pending.userId, pending.organizationId)), 200);
  });
}
