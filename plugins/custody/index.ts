// Custody over HTTP: the signing audit log for auditors. The keys themselves stay in host/custody/.
import { definePlugin } from "../../host/plugin.ts";
import { PERMISSIONS } from "./permissions.ts";
import { signatureRoutes } from "./signature-routes.ts";

export default definePlugin({
  id: "custody",
  permissions: PERMISSIONS,
  routes: (app, ctx) => {
    signatureRoutes(app, ctx);
  },
});
