// bundler:wake-sweep, once a minute across the cluster (graphile-worker's crontab): wakes the bundling run of every
// organisation and chain holding an operation pending for STALE_SECONDS in auto mode, or claimed as long by a bundle
// whose write was never queued. An acceptance answers once its row is committed and wakes the run without waiting for
// the wake (mempool.ts): a wake that failed, or a process that stopped between the two, would otherwise leave the
// operation until the next acceptance on that chain. A run stopped between its claim and its write is retried by its
// job; should that job be gone too, the sweep's run finishes the bundle (bundle-claims.ts).
import { z } from "zod";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { wakeBundler } from "./bundle-job.ts";
import { type BundlerDb, bundlerDb } from "./tables.ts";

export const WAKE_SWEEP_TASK = "wake-sweep";
/** Older than a bundling run takes to pick an operation up after its wake. */
export const STALE_SECONDS = 30;

/**
 * The organisations and chains (in auto mode) with an operation pending since before `before`, or claimed since then
 * by a bundle without a write.
 */
export function staleBundlingRuns(db: BundlerDb, before: Date) {
  return db
    .selectFrom("bundlerUserOperations as o")
    .leftJoin("bundlerSettings as s", "s.chainId", "o.chainId")
    .select(["o.chainId", "o.organizationId"])
    .distinct()
    .where((eb) =>
      eb.or([
        eb.and([eb("o.status", "=", "pending"), eb("o.createdAt", "<", before)]),
        eb.and([
          eb("o.status", "=", "submitted"),
          eb("o.transactionRequestId", "is", null),
          eb("o.updatedAt", "<", before),
        ]),
      ]),
    )
    .where((eb) => eb.or([eb("s.bundlingMode", "is", null), eb("s.bundlingMode", "=", "auto")]))
    .execute();
}

export function wakeSweepTask(ctx: PluginContext) {
  // graphile-worker's crontab adds `_cron` (the period's time) to the payload.
  return defineTask(z.object({ _cron: z.object({ ts: z.string() }) }), async () => {
    const stale = await staleBundlingRuns(bundlerDb(ctx.db.platform), new Date(Date.now() - STALE_SECONDS * 1000));
    for (const { chainId, organizationId } of stale)
      if (ctx.chains.has(chainId)) await wakeBundler(ctx, chainId, organizationId);
  });
}
