// GET /metrics in the Prometheus text format (prom-client), one registry per host process: request counts and
// latency by route template and status class (counted by the request observer), and at each scrape the worker's
// queue depth and failures by task (graphile-worker's jobs), each served chain's head against the index head there,
// webhook deliveries by outcome, and the writes awaiting finality or sent back by a reorg. Who may read it:
// metrics-access.ts.
import { sql } from "kysely";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { App } from "../../host/http/env.ts";
import type { PluginContext, RequestRecord } from "../../host/plugin.ts";
import { assertMetricsAccess } from "./metrics-access.ts";
import type { MonitoringSettings } from "./settings.ts";

export interface Metrics {
  observe(record: RequestRecord): void;
  render(): Promise<{ contentType: string; text: string }>;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

export function createMetrics(ctx: PluginContext<"webhookDeliveryStats">, dropped: () => number): Metrics {
  const registry = new Registry();
  const labels = ["method", "route", "status_class", "request_type"] as const;
  const requests = new Counter({
    name: "api_requests_total",
    help: "API requests answered by this host process, by route template and status class",
    labelNames: labels,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "api_request_duration_seconds",
    help: "API request duration (to the response head) by route template and status class",
    labelNames: labels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const queueDepth = gauge("worker_queue_depth", "Jobs waiting or running, by task", ["task"]);
  const jobFailures = gauge("worker_jobs_failed", "Jobs that failed their last attempt, by task", ["task"]);
  const jobsDead = gauge("worker_jobs_permanently_failed", "Jobs out of attempts, by task", ["task"]);
  const chainHead = gauge("chain_head_block", "A served chain's newest block", ["chain_id"]);
  const indexHead = gauge("index_head_block", "The newest block the index has processed", ["chain_id"]);
  const indexLag = gauge("index_lag_blocks", "Chain head minus index head", ["chain_id"]);
  const deliveries = gauge("webhook_deliveries", "Webhook deliveries by outcome (status)", ["outcome"]);
  const droppedLogs = gauge("request_log_dropped_total", "Request log records this process could not write");
  const unfinal = gauge(
    "transaction_requests_awaiting_finality",
    "COMPLETED writes whose block is not yet final (the chain's finality depth), watched for reorgs",
    ["chain_id"],
  );
  const reorged = gauge(
    "transaction_requests_reorged",
    "Writes a reorg removed after they completed, back in CONFIRMING (sub-status REORGED) until mined again",
    ["chain_id"],
  );
  const reorgs = gauge("transaction_request_reorgs_total", "Completed writes a reorg removed, ever", ["chain_id"]);

  /** Each served chain's head and the index's head there. */
  const heads = () =>
    Promise.all(
      ctx.chains.all().map(async ({ chainId, client }) => {
        const [head, indexed] = await Promise.all([
          client.getBlockNumber().catch(() => undefined),
          ctx.index.indexedBlock(chainId),
        ]);
        return { chainId: String(chainId), head, indexed };
      }),
    );

  async function refresh() {
    const [jobs, webhook, chains, finality] = await Promise.all([
      sql<{ task: string; depth: number; failed: number; dead: number }>`
        select task_identifier as task,
               count(*) filter (where attempts < max_attempts)::int as depth,
               count(*) filter (where last_error is not null)::int as failed,
               count(*) filter (where attempts >= max_attempts)::int as dead
          from graphile_worker.jobs group by task_identifier`
        .execute(ctx.db.platform)
        .then((r) => r.rows)
        .catch(() => []),
      ctx.webhookDeliveryStats.byOutcome().catch(() => []),
      heads(),
      // Each part reads one partial index (migration 0027_write_finality).
      sql<{ chainId: number; unfinal: number; reorged: number; reorgs: number }>`
        select chain_id, sum(unfinal)::int as unfinal, sum(reorged)::int as reorged, sum(reorgs)::int as reorgs from (
          select chain_id, count(*) as unfinal, 0 as reorged, 0 as reorgs from platform.transaction_requests
           where status = 'COMPLETED' and finalized_at is null and executor = 'eoa' group by chain_id
          union all
          select chain_id, 0, count(*) filter (where status = 'CONFIRMING' and sub_status = 'REORGED'), sum(reorgs)
            from platform.transaction_requests where reorgs > 0 group by chain_id) parts
         group by chain_id`
        .execute(ctx.db.platform)
        .then((r) => r.rows)
        .catch(() => []),
    ]);
    for (const g of [queueDepth, jobFailures, jobsDead, deliveries, chainHead, indexHead, indexLag]) g.reset();
    for (const g of [unfinal, reorged, reorgs]) g.reset();
    for (const row of finality) {
      const chain = { chain_id: String(row.chainId) };
      unfinal.set(chain, row.unfinal);
      reorged.set(chain, row.reorged);
      reorgs.set(chain, row.reorgs);
    }
    for (const row of jobs) {
      queueDepth.set({ task: row.task }, row.depth);
      jobFailures.set({ task: row.task }, row.failed);
      jobsDead.set({ task: row.task }, row.dead);
    }
    for (const row of webhook) deliveries.set({ outcome: row.outcome }, row.count);
    for (const { chainId, head, indexed } of chains) {
      if (head !== undefined) chainHead.set({ chain_id: chainId }, Number(head));
      if (indexed !== undefined) indexHead.set({ chain_id: chainId }, indexed);
      if (head !== undefined && indexed !== undefined) indexLag.set({ chain_id: chainId }, Number(head) - indexed);
    }
    droppedLogs.set(dropped());
  }

  return {
    observe(record) {
      const values = {
        method: record.method,
        route: record.routeTemplate ?? "unmatched",
        status_class: statusClass(record.statusCode),
        request_type: record.requestType,
      };
      requests.inc(values);
      latency.observe(values, record.durationMs / 1000);
    },
    async render() {
      await refresh();
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
