// Custody over HTTP: the signing audit log for auditors, and the custody partitions custodians activate (M of N).
// The keys themselves stay in host/custody/.
import { definePlugin } from "../../host/plugin.ts";
import { partitionRoutes } from "./partition-routes.ts";
import { PERMISSIONS } from "./permissions.ts";
import { signatureRoutes } from "./signature-routes.ts";

export default definePlugin({
  id: "custody",
  requires: ["custody"],
  permissions: PERMISSIONS,
  routes: (app, ctx) => {
    signatureRoutes(app, ctx);
    partitionRoutes(app, ctx);
  },
});
