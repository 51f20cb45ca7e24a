// People's authentication: sign-in with password and TOTP, sessions, and ending them.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { PERMISSIONS } from "./permissions.ts";
import { authRoutes, PUBLIC_AUTH_PATHS } from "./routes.ts";

export default definePlugin({
  id: "auth",
  requires: ["secrets"],
  errors: ERRORS,
  permissions: PERMISSIONS,
  publicPaths: PUBLIC_AUTH_PATHS,
  routes: authRoutes,
});
