// Every route of the token operations (servicing writes, pre-check, event log, holders, documents, metadata,
// permits, redemptions, and the legacy user reads), mounted with one call from the plugin.
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { documentRoutes } from "./documents-routes.ts";
import { eventRoutes } from "./events-routes.ts";
import { holderRoutes } from "./holders-routes.ts";
import { legacyUserRoutes } from "./legacy-user-routes.ts";
import { metadataRoutes } from "./metadata-routes.ts";
import { operationRoutes } from "./operations-routes.ts";
import { permitRoutes } from "./permit-routes.ts";
import { precheckRoutes } from "./prechecks.ts";
import { redemptionRoutes } from "./redemption-routes.ts";

export function tokenOperationRoutes(app: App, ctx: PluginContext) {
  operationRoutes(app, ctx);
  metadataRoutes(app, ctx);
  documentRoutes(app, ctx);
  permitRoutes(app, ctx);
  redemptionRoutes(app, ctx);
  precheckRoutes(app, ctx);
  eventRoutes(app, ctx);
  holderRoutes(app, ctx);
  legacyUserRoutes(app, ctx);
}
