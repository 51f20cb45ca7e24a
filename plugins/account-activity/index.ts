// Activity feeds: a participant's (any of its wallets) and an account's (one address) events and metrics within the
// organisation's system, for callers allowed to read them. The plugin owns the feeds' shared collection, shapes and
// answers; each feed's routes say whose events they are and who may read them.
import { definePlugin } from "../../host/plugin.ts";
import { accountActivityRoutes } from "./account-routes.ts";
import { participantActivityRoutes } from "./participant-routes.ts";
import { PERMISSIONS } from "./permissions.ts";

export default definePlugin({
  id: "account-activity",
  routes(app, ctx) {
    participantActivityRoutes(app, ctx);
    accountActivityRoutes(app, ctx);
  },
  permissions: PERMISSIONS,
});
