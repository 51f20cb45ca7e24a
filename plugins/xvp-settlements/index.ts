// XvP settlements (issue #17): multi-leg delivery versus payment between wallets of one or several organisations,
// on each system's xvp-settlement addon (contracts/addons/XvPSettlement*.sol), indexed by src/addons/xvp-settlement.ts.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { MUTATION_KINDS } from "./mutation-kinds.ts";
import { PERMISSIONS } from "./permissions.ts";
import { REVERT_ERRORS } from "./revert-errors.ts";
import { xvpSettlementRoutes } from "./routes.ts";

export default definePlugin({
  id: "xvp-settlements",
  routes: xvpSettlementRoutes,
  permissions: PERMISSIONS,
  errors: ERRORS,
  revertErrors: REVERT_ERRORS,
  mutationKinds: MUTATION_KINDS,
});
