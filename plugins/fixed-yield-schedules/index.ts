// Fixed yield schedules (add-on): a yield on a token with historical balances, paid pro rata to the balances at
// each period's end from what the schedule holds; create, read, top up, withdraw, claim.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { fixedYieldMutationKinds } from "./mutation-kinds.ts";
import { PERMISSIONS } from "./permissions.ts";
import { REVERT_ERRORS } from "./revert-errors.ts";
import { fixedYieldRoutes } from "./routes.ts";

export default definePlugin({
  id: "fixed-yield-schedules",
  permissions: PERMISSIONS,
  errors: ERRORS,
  revertErrors: REVERT_ERRORS,
  routes: fixedYieldRoutes,
  mutationKinds: fixedYieldMutationKinds,
});
