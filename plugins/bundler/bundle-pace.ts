// When a bundling run sends. Each bundle costs the same whatever it carries (its jobs, custody signature, transaction,
// block, confirmations and indexing: some 0.1 s of CPU here), so under load small bundles take the CPU the
// acceptances need (sent on every acceptance, bundles of three or four operations slowed the acceptances ten-fold).
// A run sends once BUNDLER_BUNDLE_TARGET_SIZE accepted operations of the organisation wait on the chain; short of
// that, once the oldest has waited BUNDLER_BUNDLE_MAX_WAIT_MS, unless operations arrive fast enough (as the waiting
// ones came, projected) to fill the bundle by BUNDLER_BUNDLE_FILL_WAIT_MS: then it lets the bundle fill, up to that.
// So a trickle is bundled within the short wait (a bundle of a few costs CPU that is to spare then), and a load the
// machine works to keep up with is bundled in full bundles, as Alto's bundling interval grows with its load (100 ms
// to 1 s). Only accepted operations count, each from when it was accepted: a bundle takes none still accepting, and
// under load an acceptance can take longer than the wait, so counting those would send at once, with the few
// accepted so far (smaller bundles, more load). A run woken sooner polls the mempool until then.
import { sql } from "kysely";
import type { BundlerDb } from "./tables.ts";

/** How often a waiting run looks at the mempool again. */
const POLL_MS = 25;

export interface BundlePace {
  targetSize: number;
  maxWaitMs: number;
  /** The longest the oldest operation waits when the bundle is filling fast enough to be full by then. */
  fillWaitMs: number;
}

export interface PendingOperations {
  count: number;
  oldestAgeMs: number | null;
}

/** The longest a run waits: the fill wait, never below the short wait. */
const longestWaitMs = (pace: BundlePace) => Math.max(pace.fillWaitMs, pace.maxWaitMs);

/** Whether the pending operations are worth a bundle now (0); else how long until they may be. */
export function readyIn({ count, oldestAgeMs }: PendingOperations, pace: BundlePace): number {
  if (oldestAgeMs === null) return 0; // nothing pending: the run has nothing to wait for
  if (count >= pace.targetSize) return 0;
  const fillWaitMs = longestWaitMs(pace);
  if (oldestAgeMs < pace.maxWaitMs) return pace.maxWaitMs - oldestAgeMs;
  // Past the short wait: worth waiting on only if the operations, arriving as they did, fill the bundle in time.
  const filledBy = oldestAgeMs > 0 ? (count * fillWaitMs) / oldestAgeMs : 0;
  if (filledBy < pace.targetSize) return 0;
  return Math.max(0, fillWaitMs - oldestAgeMs);
}

/** Resolves when the organisation's pending operations on the chain are worth a bundle (see above). */
export async function untilWorthBundling(
  db: BundlerDb,
  scope: { chainId: number; organizationId: string },
  pace: BundlePace,
): Promise<void> {
  if (pace.maxWaitMs <= 0) return;
  const deadline = Date.now() + longestWaitMs(pace); // a bound of its own, whatever the rows say
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
