// Counts a change of a system's counters in the hour of the event (system_stat_hour; see domain/statistics/metrics.ts).
import type { Context } from "ponder:registry";
import { systemStatHour } from "ponder:schema";
import type { Address } from "viem";
import { hourOf, type Metric } from "../domain/statistics/metrics.ts";

export async function countStats(
  context: Context,
  system: Address,
  timestamp: bigint,
  changes: readonly (readonly [Metric, number])[],
) {
  const hour = hourOf(timestamp);
  for (const [metric, delta] of changes) {
    if (delta === 0) continue;
    await context.db
      .insert(systemStatHour)
      .values({ chainId: context.chain.id, system, metric, hour, delta })
      .onConflictDoUpdate((row) => ({ delta: row.delta + delta }));
  }
}
