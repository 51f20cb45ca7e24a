// When a bundling run sends: once BUNDLER_BUNDLE_TARGET_SIZE operations of the organisation wait on the chain, or
// once the oldest has waited BUNDLER_BUNDLE_MAX_WAIT_MS, whichever comes first (a run woken sooner polls the mempool
// until then). Each bundle costs the same whatever it carries (its jobs, custody signature, transaction, block,
// confirmations and indexing: some 0.1 s of CPU here): sent on every acceptance under load, bundles of three or four
// operations kept the machine busy enough to slow the acceptances themselves ten-fold. Only accepted operations count,
// each from when it was accepted: a bundle takes none still accepting, and under load an acceptance can take longer
// than the wait, so counting those would send at once, with the few accepted so far (smaller bundles, more load).
import { sql } from "kysely";
import type { BundlerDb } from "./tables.ts";

/** How often a waiting run looks at the mempool again. */
const POLL_MS = 25;

export interface BundlePace {
  targetSize: number;
  maxWaitMs: number;
}

/** Whether the pending operations are worth a bundle now; else how long until the oldest has waited enough. */
export function readyIn(pending: { count: number; oldestAgeMs: number | null }, pace: BundlePace): number {
  if (pending.oldestAgeMs === null) return 0; // nothing pending: the run has nothing to wait for
  if (pending.count >= pace.targetSize) return 0;
  return Math.max(0, pace.maxWaitMs - pending.oldestAgeMs);
}

/** Resolves when the organisation's pending operations on the chain are worth a bundle (see above). */
export async function untilWorthBundling(
  db: BundlerDb,
  scope: { chainId: number; organizationId: string },
  pace: BundlePace,
): Promise<void> {
  if (pace.maxWaitMs <= 0) return;
  const deadline = Date.now() + pace.maxWaitMs; // a bound of its own, whatever the rows say
  for (;;) {
    // (the database's clock on both sides of the age; the camel-case plugin names the columns)
    const { rows } = await sql<{ count: string; oldestAgeMs: number | null }>`
      select count(*) as count,
        extract(epoch from now() - min(greatest(created_at, updated_at))) * 1000 as oldest_age_ms
      from platform.bundler_user_operations
      where chain_id = ${scope.chainId} and organization_id = ${scope.organizationId} and status = 'pending'
        and not accepting`.execute(db);
    const oldestAgeMs = rows[0]?.oldestAgeMs;
    const wait = readyIn(
      { count: Number(rows[0]?.count ?? 0), oldestAgeMs: oldestAgeMs == null ? null : Number(oldestAgeMs) },
      pace,
    );
    const left = deadline - Date.now();
    if (wait <= 0 || left <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left, POLL_MS)));
  }
}
