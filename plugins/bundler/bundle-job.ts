// The bundling run of an organisation on a served chain: one graphile-worker job, keyed and queued per
// organisation and chain, so operations that arrive while it waits fold into one run (one handleOps) and two runs
// never overlap. Auto mode wakes it on each accepted operation; manual mode only on debug_bundler_sendBundleNow.

import { sql } from "kysely";
import { z } from "zod";
import { coalesced } from "../../host/cache/indexed-reads.ts";
import { unflushedCommit } from "../../host/db/unflushed-commit.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { TaskPayload } from "../../host/worker/define-task.ts";
import { addKeyedJobSql, type FoldableJob, foldIntoKeyedJobSql } from "../../host/worker/keyed-jobs.ts";
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
): FoldableJob<TaskPayload<typeof BundlePayload>> {
  const name = `bundler:${chainId}:${organizationId}`;
  return {
    task: BUNDLE_TASK,
    payload: { chainId, organizationId, ...(now ? { now } : {}) },
    queueName: name,
    jobKey: name,
  };
}

/** Whether bundling on the chain is manual (debug_bundler_setBundlingMode): only sendBundleNow's runs bundle then. */
export const manualBundling = (chainId: number) =>
  sql<boolean>`exists (select 1 from platform.bundler_settings where chain_id = ${chainId} and bundling_mode = 'manual')`;

/**
 * The next run's wake a confirmed bundle gives, in its confirmation's transaction (which the run then waits for):
 * folded into a pending run, which keeps its payload (a debug_bundler_sendBundleNow run stays sent at once: replaced,
 * it would take nothing in manual mode), and none in manual mode, where only sendBundleNow bundles.
 */
export function wakeAfterBundleSql(chainId: number, organizationId: string) {
  return sql`select ${foldIntoKeyedJobSql(bundleJob(chainId, organizationId))} where not ${manualBundling(chainId)}`;
}

/**
 * Queues the organisation's bundling run on the chain, in auto mode (or always, with `force`). One wake per
 * organisation and mode at a time on the platform (host/cache's `coalesced`): concurrent acceptances share the next
 * wake, begun after their rows were committed, instead of queueing 32 upserts of one job row. A wake folds into the
 * run's pending job (one no worker has taken yet, which will read the rows committed before it) rather than rewriting
 * it: under load a run is nearly always pending or running, and add_job's upsert and NOTIFY were the costliest
 * statement of an acceptance (1.3 ms of PostgreSQL's time each). A forced wake rewrites it, to carry `now`.
 * Answers the job's id (null when none was queued, or a worker took the keyed job meanwhile: keyed-jobs.ts).
 */
export function wakeBundler(
  ctx: PluginContext,
  chainId: number,
  organizationId: string,
  force = false,
): Promise<string | null> {
  const { wakes } = bundlerState(ctx);
  const key = `${chainId}:${organizationId}:${force}`;
  let wake = wakes.get(key);
  if (!wake) {
    const job = bundleJob(chainId, organizationId, force);
    const queue = force ? addKeyedJobSql(job) : foldIntoKeyedJobSql(job);
    wake = coalesced(async () => {
      // Committed without waiting for the disk: a wake a crash loses is made up by the wake sweep (wake-sweep.ts),
      // and one disk flush fewer per acceptance leaves the disk to the acceptances' own rows.
      const { rows } = await sql<{ id: string | null }>`select ${queue} as id
        from ${unflushedCommit} as unflushed
        where ${force}::boolean or not ${manualBundling(chainId)}`.execute(ctx.db.platform);
      return rows[0]?.id ?? null;
    });
    wakes.set(key, wake);
  }
  return wake();
}
