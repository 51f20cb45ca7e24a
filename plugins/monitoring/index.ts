// Monitoring (issue #18, part 1): every /api request recorded off the request path (observer → buffer → a flush each
// second), the seven organisation routes over the log with its SSE stream (LISTEN/NOTIFY across host processes),
// hourly retention, and GET /metrics for Prometheus. The permission `monitoring:read` is the systems plugin's.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { metricsRoute } from "./metrics.ts";
import { migrations } from "./migrations.ts";
import { monitoringProcess } from "./process-state.ts";
import { monitoringRoutes } from "./routes.ts";
import { MonitoringSettings } from "./settings.ts";
import { pruneTask } from "./tasks.ts";

export default definePlugin({
  id: "monitoring",
  settings: MonitoringSettings,
  requires: ["webhookDeliveryStats"],
  routes: (app, ctx) => {
    monitoringRoutes(app, ctx);
    metricsRoute(app, ctx, monitoringProcess(ctx).metrics);
  },
  requestObservers: (ctx) => {
    const { recorder, metrics } = monitoringProcess(ctx);
    return ctx.settings.REQUEST_LOG_ENABLED ? [metrics.observe, recorder.observe] : [metrics.observe];
  },
  timers: (ctx) => {
    const { recorder } = monitoringProcess(ctx);
    return [
      {
        name: "monitoring:flush-request-logs",
        schedule: "* * * * * *",
        run: () => recorder.flush(),
        stop: () => recorder.flush(),
      },
    ];
  },
  tasks: (ctx) => ({ prune: pruneTask(ctx) }),
  crontab: [{ task: "prune", schedule: "23 * * * *" }],
  migrations,
  errors: ERRORS,
});
