// A keyed graphile-worker job, added from SQL. add_job clears the key of a locked job and then inserts or replaces
// the unlocked one, in two statements: a worker that locks the keyed job between the two makes the second do nothing,
// and add_job returns no row. Inside a transaction that matters (the run that took the job may have read before the
// transaction's rows were committed), so such a caller adds the job again once they are.
import { type Kysely, type RawBuilder, sql } from "kysely";

/** `P`: the task's payload, typed from its schema (define-task.ts's TaskPayload) where the job is built. */
export interface KeyedJob<P extends object = Record<string, unknown>> {
  task: string;
  payload: P;
  /** Folds repeats into one pending job. */
  jobKey?: string;
  /** Runs of one queue never overlap. */
  queueName?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** `preserve_run_at`: a repeat keeps the pending job's run time (a scheduled run is not put off). */
  jobKeyMode?: "replace" | "preserve_run_at";
}

/** The added job's id, or null when a worker locked the keyed job meanwhile (see above). */
export function addKeyedJobSql(job: KeyedJob<object>): RawBuilder<string | null> {
  return sql<string | null>`(graphile_worker.add_job(${job.task}, ${JSON.stringify(job.payload)}::json,
    queue_name => ${job.queueName ?? null}::text, run_at => ${job.runAt ?? null}::timestamptz,
    job_key => ${job.jobKey ?? null}::text, max_attempts => ${job.maxAttempts ?? 25}::int,
    job_key_mode => ${job.jobKeyMode ?? "replace"}::text)).id`;
}

/** A job every repeat of which folds into one pending run. */
export type FoldableJob<P extends object = Record<string, unknown>> = KeyedJob<P> & { jobKey: string };

/**
 * Folds into the key's pending job (one no worker has taken and that is due) without touching its row, else adds
 * it: for submissions many callers make at once for one key. Must run in the transaction whose rows the job reads:
 * the job's run waits for that transaction (keyed-job-barrier.ts). The job's id, or null as for addKeyedJobSql.
 */
export function foldIntoKeyedJobSql(job: FoldableJob<object>): RawBuilder<string | null> {
  return sql<string | null>`platform.fold_into_keyed_job(${job.task}, ${JSON.stringify(job.payload)}::json,
    ${job.queueName ?? null}::text, ${job.jobKey}::text, ${job.maxAttempts ?? 25}::int)::text`;
}

/** Adds (or folds into) the keyed job; called after a commit, so a run that locked it meanwhile sees the new rows. */
export async function addKeyedJob<DB>(db: Kysely<DB>, job: KeyedJob<object>): Promise<void> {
  await sql`select ${addKeyedJobSql(job)}`.execute(db as unknown as Kysely<unknown>);
}

/** Where a job stands: waiting or running, completed (graphile-worker deletes a completed job), or failed (its last
 * attempt left its error and released it; a retry, if due, is another run). */
export type JobOutcome = "open" | "completed" | "failed";

/** The outcome of the job `id` (as addKeyedJobSql answered it). */
export async function jobOutcome<DB>(db: Kysely<DB>, id: string): Promise<JobOutcome> {
  const { rows } = await sql<{ failed: boolean }>`
    select last_error is not null and locked_at is null as failed from graphile_worker._private_jobs
    where id = ${id}::bigint`.execute(db as unknown as Kysely<unknown>);
  const job = rows[0];
  if (!job) return "completed";
  return job.failed ? "failed" : "open";
}
