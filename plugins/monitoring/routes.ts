// The seven monitoring routes (spec: Endpoints → Monitoring), for the organisation's administrators and owners; every
// read is one organisation's recorded requests in a window of at most the route's range. Mounted in the order the
// OpenAPI document lists them; each family in its own file.
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { monitoringProcess } from "./process-state.ts";
import { requestLogRoutes } from "./request-log-routes.ts";
import { requestLogStreamRoute } from "./request-log-stream-route.ts";
import { requestMetricsRoutes, topErrorsRoutes } from "./request-metrics-routes.ts";

export function monitoringRoutes(app: App, ctx: PluginContext<"webhookDeliveryStats">) {
  const db = ctx.db.platform;
  requestMetricsRoutes(app, db);
  // Before /request-logs/{id}: the first registered of two matching routes answers.
  requestLogStreamRoute(app, monitoringProcess(ctx).stream);
  requestLogRoutes(app, db);
  topErrorsRoutes(app, db);
}
