// The bundling run of an organisation on a served chain: one graphile-worker job, keyed and queued per
// organisation and chain, so operations that arrive while it waits fold into one run (one handleOps) and two runs
// never overlap. Auto mode wakes it on each accepted operation; manual mode only on debug_bundler_sendBundleNow.

import { sql } from "kysely";
import { z } from "zod";
import { coalesced } from "../../host/cache/indexed-reads.ts";
import { unflushedCommit } from "../../host/db/unflushed-commit.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { TaskPayload } from "../../host/worker/define-task.ts";
import { addKeyedJobSql, type KeyedJob } from "../../host/worker/keyed-jobs.ts";
import { bundlerState } from "./bundler-state.ts";

export const BUNDLE_TASK = "bundler:bundle";

/** The bundle task's payload (bundle.ts parses it with this schema). */
export const BundlePayload = z.object({
  organizationId: z.string(),
  chainId: z.number().int(),
  /** Sent at once (debug_bundler_sendBundleNow), without waiting for the bundle to fill (bundle-pace.ts). */
  now: z.boolean().optional(),
});

export function bundleJob(
  chainId: number,
  organizationId: string,
  now = false,
): KeyedJob<TaskPayload<typeof BundlePayload>> {
  const name = `bundler:${chainId}:${organizationId}`;
  return {
    task: BUNDLE_TASK,
    payload: { chainId, organizationId, ...(now ? { now } : {}) },
    queueName: name,
    jobKey: name,
  };
}

/**
 * Queues the organisation's bundling run on the chain, in auto mode (or always, with `force`). One wake per
 * organisation and mode at a time on the platform (host/cache's `coalesced`): concurrent acceptances share the next
 * add_job, begun after their rows were committed, instead of queueing 32 upserts of one job row.
 */
export function wakeBundler(ctx: PluginContext, chainId: number, organizationId: string, force = false): Promise<void> {
  const { wakes } = bundlerState(ctx);
  const key = `${chainId}:${organizationId}:${force}`;
  let wake = wakes.get(key);
  if (!wake) {
    wake = coalesced(async () => {
      // Committed without waiting for the disk: a wake a crash loses is made up by the wake sweep (wake-sweep.ts),
      // and one disk flush fewer per acceptance leaves the disk to the acceptances' own rows.
      await sql`select ${addKeyedJobSql(bundleJob(chainId, organizationId, force))}
        from ${unflushedCommit} as unflushed
        where ${force}::boolean or not exists (select 1 from platform.bundler_settings
                                              where chain_id = ${chainId} and bundling_mode = 'manual')`.execute(
        ctx.db.platform,
      );
    });
    wakes.set(key, wake);
  }
  return wake();
}
