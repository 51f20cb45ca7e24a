// External tokens: ERC-20 contracts made outside the platform that a system registers in its external token
// registry (inspect, register, list, approve a spender; and the legacy list).
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { externalTokenMutationKinds } from "./mutation-kinds.ts";
import { PERMISSIONS } from "./permissions.ts";
import { REVERT_ERRORS } from "./revert-errors.ts";
import { externalTokenRoutes } from "./routes.ts";

export default definePlugin({
  id: "external-tokens",
  permissions: PERMISSIONS,
  errors: ERRORS,
  revertErrors: REVERT_ERRORS,
  routes: externalTokenRoutes,
  mutationKinds: externalTokenMutationKinds,
});
