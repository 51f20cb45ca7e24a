// An endpoint's deliveries are sent by its drain job (deliver.ts): one graphile-worker job per endpoint, in the
// endpoint's own queue (so at most one drain runs for it, and a slow or failing receiver holds one worker slot, never
// another endpoint's), keyed by the endpoint (wake-ups fold into its pending job).
import { type QueryExecutorProvider, sql } from "kysely";
import { DELIVER_TASK } from "./names.ts";

/**
 * Wakes the endpoints' drains, in the caller's transaction when given one. `at`: when (default now). `keepEarlier`:
 * a pending wake-up keeps its time (the drain's own next wake-up, and the sweep's, never postpone an earlier one).
 */
export async function wakeEndpoints(
  db: QueryExecutorProvider,
  endpointIds: string[],
  options: { at?: Date; keepEarlier?: boolean } = {},
): Promise<void> {
  const ids = [...new Set(endpointIds)];
  if (ids.length === 0) return;
  const mode = options.keepEarlier ? "preserve_run_at" : "replace";
  await sql`select graphile_worker.add_job(${DELIVER_TASK}, json_build_object('endpointId', e.id),
      queue_name => 'webhooks:' || e.id, run_at => ${options.at?.toISOString() ?? null}::timestamptz,
      job_key => ${DELIVER_TASK} || ':' || e.id, max_attempts => 25, job_key_mode => ${mode})
    from unnest(${ids}::text[]) as e(id)`.execute(db);
}
