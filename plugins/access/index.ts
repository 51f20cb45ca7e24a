// Access over HTTP: members' own API keys (create, list, revoke) and the organisation's members with their roles.
// The same functions serve the CLI (api-key-store.ts, members.ts, users.ts).
import { definePlugin } from "../../host/plugin.ts";
import { apiKeyRoutes } from "./api-key-routes.ts";
import { ERRORS } from "./errors.ts";
import { memberRoutes } from "./member-routes.ts";
import { PERMISSIONS } from "./permissions.ts";

export default definePlugin({
  id: "access",
  requires: ["custody"],
  errors: ERRORS,
  permissions: PERMISSIONS,
  routes: (app, ctx) => {
    apiKeyRoutes(app, ctx);
    memberRoutes(app, ctx);
  },
});

// The operator functions scripts/ (bootstrap, cli) call: a plugin's index.ts is its only public entry.
export { createApiKey, listApiKeys, revokeApiKey } from "./api-key-store.ts";
export { addMember, grantRoles, provisionMissingMemberWallets, setMemberRoles } from "./members.ts";
export { grantPlatformRole, platformRoleHolders, revokePlatformRole } from "./platform-roles.ts";
export { createUser, setUserPincode } from "./users.ts";
