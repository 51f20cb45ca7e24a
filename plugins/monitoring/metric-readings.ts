// What each scrape reads: graphile-worker's jobs by task, webhook deliveries by outcome, each served chain's head
// against the index head there, and the writes awaiting finality or sent back by a reorg. A source out of reach
// reads as nothing (its gauges are left empty), never as a failed scrape.
import { sql } from "kysely";
import type { PluginContext } from "../../host/plugin.ts";

export interface MetricReadings {
  jobs: { task: string; depth: number; failed: number; dead: number }[];
  webhook: { outcome: string; count: number }[];
  chains: { chainId: string; head: bigint | undefined; indexed: number | undefined }[];
  finality: { chainId: number; unfinal: number; reorged: number; reorgs: number }[];
}

/** Each served chain's head and the index's head there. */
const heads = (ctx: PluginContext) =>
  Promise.all(
    ctx.chains.all().map(async ({ chainId, client }) => {
      const [head, indexed] = await Promise.all([
        client.getBlockNumber().catch(() => undefined),
        ctx.index.indexedBlock(chainId),
      ]);
      return { chainId: String(chainId), head, indexed };
    }),
  );

export async function readMetrics(ctx: PluginContext<"webhookDeliveryStats">): Promise<MetricReadings> {
  const [jobs, webhook, chains, finality] = await Promise.all([
    sql<MetricReadings["jobs"][number]>`
      select task_identifier as task,
             count(*) filter (where attempts < max_attempts)::int as depth,
             count(*) filter (where last_error is not null)::int as failed,
             count(*) filter (where attempts >= max_attempts)::int as dead
        from graphile_worker.jobs group by task_identifier`
      .execute(ctx.db.platform)
      .then((r) => r.rows)
      .catch(() => []),
    ctx.webhookDeliveryStats.byOutcome().catch(() => []),
    heads(ctx),
    // Each part reads one partial index (migrations 0029_write_finality, 0037_reverted_write_finality).
    sql<MetricReadings["finality"][number]>`
      select chain_id, sum(unfinal)::int as unfinal, sum(reorged)::int as reorged, sum(reorgs)::int as reorgs from (
        select chain_id, count(*) as unfinal, 0 as reorged, 0 as reorgs from platform.transaction_requests
         where status in ('COMPLETED', 'FAILED') and block_number is not null and finalized_at is null
           and executor = 'eoa' group by chain_id
        union all
        select chain_id, 0, count(*) filter (where status = 'CONFIRMING' and sub_status = 'REORGED'), sum(reorgs)
          from platform.transaction_requests where reorgs > 0 group by chain_id) parts
       group by chain_id`
      .execute(ctx.db.platform)
      .then((r) => r.rows)
      .catch(() => []),
  ]);
  return { jobs, webhook, chains, finality };
}
