// GET /metrics in the Prometheus text format (prom-client), one registry per host process: request counts and
// latency by route template and status class (counted by the request observer), and at each scrape the worker's
// queue depth and failures by task (graphile-worker's jobs), each served chain's head against the index head there,
// webhook deliveries by outcome, and the writes awaiting finality or sent back by a reorg. Who may read it:
// metrics-access.ts.
import { Registry } from "prom-client";
import type { App } from "../../host/http/env.ts";
import type { PluginContext, RequestRecord } from "../../host/plugin.ts";
import { metricFamilies } from "./metric-families.ts";
import { setGauges } from "./metric-gauges.ts";
import { readMetrics } from "./metric-readings.ts";
import { assertMetricsAccess } from "./metrics-access.ts";
import type { MonitoringSettings } from "./settings.ts";

export interface Metrics {
  observe(record: RequestRecord): void;
  render(): Promise<{ contentType: string; text: string }>;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** A request's labels: its route template (or "unmatched": a bounded label set) and its status class. */
export function requestLabels(record: RequestRecord) {
  return {
    method: record.method,
    route: record.routeTemplate ?? "unmatched",
    status_class: statusClass(record.statusCode),
    request_type: record.requestType,
  };
}

export function createMetrics(ctx: PluginContext<"webhookDeliveryStats">, dropped: () => number): Metrics {
  const registry = new Registry();
  const families = metricFamilies(registry);
  return {
    observe(record) {
      const values = requestLabels(record);
      families.requests.inc(values);
      families.latency.observe(values, record.durationMs / 1000);
    },
    async render() {
      setGauges(families, await readMetrics(ctx), dropped());
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

/** Outside /api: no API key; METRICS_TOKEN as metrics-access.ts decides. */
export function metricsRoute(app: App, ctx: PluginContext<never, MonitoringSettings>, metrics: Metrics) {
  app.get("/metrics", async (c) => {
    assertMetricsAccess({ ...ctx.config, ...ctx.settings }, c.req.header("authorization"));
    const { contentType, text } = await metrics.render();
    return c.body(text, 200, { "content-type": contentType, "cache-control": "no-store" });
  });
}
