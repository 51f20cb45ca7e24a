// Account activity: any address's feed and metrics within the organisation's system, for callers allowed to read it.
import { definePlugin } from "../../host/plugin.ts";
import { PERMISSIONS } from "./permissions.ts";
import { accountActivityRoutes } from "./routes.ts";

export default definePlugin({
  id: "account-activity",
  routes: accountActivityRoutes,
  permissions: PERMISSIONS,
});
