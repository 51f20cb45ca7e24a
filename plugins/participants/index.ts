// Participants: the organisation's directory of people, the organisation, assets, claim issuers and addons, and which
// wallets are EOAs. Each participant's activity feed is the account-activity plugin's.
import { definePlugin } from "../../host/plugin.ts";
import { addressKindsRoutes } from "./address-kinds-route.ts";
import { participantListRoutes } from "./list-route.ts";
import { PERMISSIONS } from "./permissions.ts";
import { roleAssignmentRoutes } from "./role-assignments-routes.ts";

export default definePlugin({
  id: "participants",
  requires: ["custody"],
  permissions: PERMISSIONS,
  routes(app, ctx) {
    addressKindsRoutes(app, ctx);
    participantListRoutes(app, ctx);
    roleAssignmentRoutes(app, ctx);
  },
});
