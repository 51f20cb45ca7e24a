// Transaction requests (where a caller follows a chain write to its terminal state, or cancels a queued one) and
// receipt lookups.
import { definePlugin } from "../../host/plugin.ts";
import { cancelRoute } from "./cancel-route.ts";
import { ERRORS } from "./errors.ts";
import { PERMISSIONS } from "./permissions.ts";
import { receiptRoutes } from "./receipts.ts";
import { transactionRoutes } from "./routes.ts";

export default definePlugin({
  id: "transactions",
  errors: ERRORS,
  permissions: PERMISSIONS,
  routes: (app, ctx) => {
    transactionRoutes(app, ctx);
    cancelRoute(app, ctx);
    receiptRoutes(app, ctx);
  },
});
