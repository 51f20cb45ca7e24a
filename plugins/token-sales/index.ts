// Token sales (issue #17's token-sale add-on): a system's token-sale factory creates sales; buyers of any
// organisation purchase; after the end buyers take their tokens (or refunds) and the issuer the proceeds.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { tokenSaleMutationKinds } from "./mutation-kinds.ts";
import { PERMISSIONS } from "./permissions.ts";
import { REVERT_ERRORS } from "./revert-errors.ts";
import { tokenSaleRoutes } from "./routes.ts";

export default definePlugin({
  id: "token-sales",
  errors: ERRORS,
  permissions: PERMISSIONS,
  revertErrors: REVERT_ERRORS,
  routes: tokenSaleRoutes,
  mutationKinds: tokenSaleMutationKinds,
});
