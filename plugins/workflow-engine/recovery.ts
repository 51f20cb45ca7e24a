// recover-stuck-workflow on graphile-worker: the organisation's permanently failed job of a task under a key is
// purged (graphile-worker deletes a job it completes), which frees the key for a new run. Refused while the job is
// running or still has attempts left, and when there is none (graphile-worker keeps no succeeded job).
import { sql } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { jobsOf } from "./visible-jobs.ts";

function blocked(reason: string, invocationIds: string[], message: string): never {
  throw new ApiError("WORKFLOW_ENGINE_WORKFLOW_RETRY_BLOCKED", { message, details: { reason, invocationIds } });
}

export async function recoverStuckWorkflow(db: PlatformDb, organizationId: string, task: string, key: string) {
  const jobs = await jobsOf(db, organizationId, task, key);
  if (jobs.length === 0) {
    blocked("no-failed-invocation", [], `No failed invocation of ${task} under ${key}: it succeeded, or never ran`);
  }
  const active = jobs.filter((job) => job.lockedAt !== null || job.attempts < job.maxAttempts);
  if (active.length > 0) {
    blocked(
      "invocation-active",
      active.map((job) => job.id),
      `An invocation of ${task} under ${key} is running or will be retried`,
    );
  }
  const ids = jobs.map((job) => job.id);
  // Only rows still unlocked and exhausted: a worker that picked one up meanwhile keeps it.
  const { rows } = await sql<{ id: string }>`
    delete from graphile_worker._private_jobs
     where id = any(${ids}::bigint[]) and locked_at is null and attempts >= max_attempts
    returning id::text as id`.execute(db);
  if (rows.length !== ids.length) {
    blocked("invocation-active", ids, `An invocation of ${task} under ${key} started while it was being purged`);
  }
  return { purged: rows.map((row) => row.id) };
}
