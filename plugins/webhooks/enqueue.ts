// Deliveries become graphile-worker jobs: one queue per endpoint (its deliveries run one at a time, so a slow or
// failing receiver holds at most one worker slot and never delays another endpoint's), one job key per delivery (a
// retry or replay folds into its pending job).
import { type QueryExecutorProvider, sql } from "kysely";
import { DELIVER_TASK } from "./names.ts";

export interface DeliveryJob {
  id: string;
  endpointId: string;
  runAt?: Date;
}

/**
 * Adds the jobs in one statement (queue `webhooks:<endpoint id>`, job key `webhooks:deliver:<delivery id>`); in the caller's transaction when given one. `preserveRunAt`: a pending job of the
 * delivery keeps its time (the sweep re-adds jobs that may exist).
 */
export async function enqueueDeliveries(
  db: QueryExecutorProvider,
  jobs: DeliveryJob[],
  options: { preserveRunAt?: boolean } = {},
): Promise<void> {
  if (jobs.length === 0) return;
  const mode = options.preserveRunAt ? "preserve_run_at" : "replace";
  await sql`select graphile_worker.add_job(${DELIVER_TASK}, json_build_object('deliveryId', d.id),
      queue_name => 'webhooks:' || d.endpoint_id, run_at => d.run_at, job_key => ${DELIVER_TASK} || ':' || d.id,
      max_attempts => 25, job_key_mode => ${mode})
    from unnest(${jobs.map((j) => j.id)}::text[], ${jobs.map((j) => j.endpointId)}::text[],
      ${jobs.map((j) => j.runAt?.toISOString() ?? null)}::timestamptz[]) as d(id, endpoint_id, run_at)`.execute(db);
}
