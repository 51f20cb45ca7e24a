// Statistics of the organisation's system (identities, claims, trusted issuers, topic schemes), from the index.
import { definePlugin } from "../../host/plugin.ts";
import { PERMISSIONS } from "./permissions.ts";
import { statsRoutes } from "./routes.ts";

export default definePlugin({
  id: "system-stats",
  routes: statsRoutes,
  permissions: PERMISSIONS,
});
