// A system's counters (domain/statistics/metrics.ts) from the index's hourly changes: current totals, and the value at the
// end of each bucket of a window (every bucket present, quiet ones carrying the previous value).

import { sql } from "kysely";
import type { Metric } from "../../domain/statistics/metrics.ts";
import { bucketStarts, STEP_SECONDS, type StatRange } from "../../domain/statistics/time-range.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex, isoFromSeconds } from "../../host/db/ledger-types.ts";

export type Totals = Map<Metric, number>;

export async function counterTotals(db: LedgerDb, system: string, metrics: readonly Metric[]): Promise<Totals> {
  const rows = await db
    .selectFrom("systemStatHour")
    .select(["metric", sql<bigint>`sum(delta)`.as("total")])
    .where("system", "=", indexedHex(system))
    .where("metric", "in", metrics)
    .groupBy("metric")
    .execute();
  return new Map(rows.map((row) => [row.metric as Metric, Number(row.total)]));
}

export interface BucketDelta {
  metric: string;
  /** The bucket's position in the window; -1 for every change before it. */
  bucket: number;
  delta: number;
}

/** Each bucket's totals: the changes before the window, plus those of every bucket up to and including it. */
export function cumulate(deltas: readonly BucketDelta[], buckets: number, metrics: readonly Metric[]): Totals[] {
  const running = new Map<Metric, number>(metrics.map((metric) => [metric, 0]));
  const perBucket = Array.from({ length: buckets }, () => new Map<Metric, number>());
  for (const { metric, bucket, delta } of deltas) {
    const m = metric as Metric;
    if (bucket < 0) running.set(m, (running.get(m) ?? 0) + delta);
    else if (bucket < buckets) perBucket[bucket].set(m, (perBucket[bucket].get(m) ?? 0) + delta);
  }
  return perBucket.map((changes) => {
    for (const [metric, delta] of changes) running.set(metric, (running.get(metric) ?? 0) + delta);
    return new Map(running);
  });
}

/** The window's buckets with their start time and the counters' values at their end. */
export async function counterSeries(db: LedgerDb, system: string, metrics: readonly Metric[], range: StatRange) {
  const starts = bucketStarts(range);
  const step = STEP_SECONDS[range.interval];
  const first = starts[0];
  const end = starts[starts.length - 1] + step;
  // Literals (integers computed here), so the select and the group by are the same expression.
  const bucket = sql<string>`greatest(floor((hour - ${sql.lit(first)}) / ${sql.lit(step)}), -1)`;
  const rows = await db
    .selectFrom("systemStatHour")
    .select(["metric", bucket.as("bucket"), sql<bigint>`sum(delta)`.as("delta")])
    .where("system", "=", indexedHex(system))
    .where("metric", "in", metrics)
    .where("hour", "<", BigInt(end))
    .groupBy(["metric", bucket])
    .execute();
  const totals = cumulate(
    rows.map((row) => ({ metric: row.metric, bucket: Number(row.bucket), delta: Number(row.delta) })),
    starts.length,
    metrics,
  );
  return starts.map((start, i) => ({ timestamp: isoFromSeconds(start), totals: totals[i] }));
}
