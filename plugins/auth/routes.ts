// The auth plugin's sign-in and session routes, in the order the OpenAPI document lists them; each in its own file.
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { currentSessionRoute } from "./current-session-route.ts";
import { revokeSessionRoute } from "./revoke-session-route.ts";
import { authRouteDeps } from "./route-deps.ts";
import { SIGN_IN_PATH, signInRoute } from "./sign-in-route.ts";
import { signOutRoute } from "./sign-out-route.ts";
import { TWO_FACTOR_PATH, twoFactorRoute } from "./two-factor-route.ts";

export const PUBLIC_AUTH_PATHS = [SIGN_IN_PATH, TWO_FACTOR_PATH];

export function authRoutes(app: App, ctx: PluginContext<"secrets">) {
  const deps = authRouteDeps(ctx);
  signInRoute(app, deps);
  twoFactorRoute(app, deps);
  signOutRoute(app, deps);
  currentSessionRoute(app);
  revokeSessionRoute(app, deps);
}
