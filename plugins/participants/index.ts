// Participants: the organisation's directory of people, the organisation, assets, claim issuers and addons; which
// wallets are EOAs; and each participant's activity feed and metrics.
import { definePlugin } from "../../host/plugin.ts";
import { participantActivityRoutes } from "./activity-routes.ts";
import { addressKindsRoutes } from "./address-kinds-route.ts";
import { ERRORS } from "./errors.ts";
import { participantListRoutes } from "./list-route.ts";
import { PERMISSIONS } from "./permissions.ts";

export default definePlugin({
  id: "participants",
  errors: ERRORS,
  permissions: PERMISSIONS,
  routes(app, ctx) {
    // address-kinds before {participantId}/...: a literal segment wins only when registered first.
    addressKindsRoutes(app, ctx);
    participantListRoutes(app, ctx);
    participantActivityRoutes(app, ctx);
  },
});
