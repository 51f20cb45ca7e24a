// POST /api/v2/auth/sign-in: email and password, throttled per account and per address before the password is
// checked; sets the session cookie, or the pending second-factor cookie when the person has TOTP.
import { createRoute } from "@hono/zod-openapi";
import { hashSecret, verifySecret } from "../../host/auth/passwords.ts";
import { createSession } from "../../host/auth/sessions.ts";
import { attemptSignIn } from "../../host/auth/sign-in-throttle.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { activeOrganization } from "./active-organization.ts";
import type { AuthRouteDeps } from "./route-deps.ts";
import { jsonBody, ok } from "./route-shapes.ts";
import { SignInBodySchema, SignInResultSchema } from "./schemas.ts";
import { setSessionCookie, setTwoFactorCookie } from "./session-cookies.ts";
import { signedIn } from "./signed-in.ts";

export const SIGN_IN_PATH = "/api/v2/auth/sign-in";

const signIn = createRoute({
  method: "post",
  path: SIGN_IN_PATH,
  tags: ["auth"],
  summary: "Sign in with email and password (sets the session cookie, or the pending second-factor cookie)",
  security: [],
  request: jsonBody(SignInBodySchema),
  responses: ok(SignInResultSchema, "Signed in, or waiting for the second factor"),
});

// Compared against when the email is unknown, so timing does not reveal which emails exist.
const decoyHash = hashSecret("decoy password that never matches");

export function signInRoute(app: App, { db, policies, addressOf }: AuthRouteDeps) {
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
    const org = await activeOrganization(db, user.id, organizationId);
    const meta = { ipAddress: address, userAgent: c.req.header("user-agent") };
    if (user.totpSecret) {
      const pending = await createSession(db, { userId: user.id, organizationId: org, stage: "pending-2fa", ...meta });
      setTwoFactorCookie(c, pending.token, pending.expiresAt);
      return c.json(single(c, { status: "TWO_FACTOR_REQUIRED" as const }), 200);
    }
    const session = await createSession(db, { userId: user.id, organizationId: org, stage: "active", ...meta });
    setSessionCookie(c, session.token, session.expiresAt);
    return c.json(single(c, signedIn(session, user.id, org)), 200);
  });
}
