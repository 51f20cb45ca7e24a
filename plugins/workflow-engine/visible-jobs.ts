// The graphile-worker jobs an organisation may see and recover: those whose payload names the organisation or one of
// its wallets (a signer's send and confirmation runs). Other organisations' jobs never show.
import { sql } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

export interface JobRow {
  id: string;
  task: string;
  key: string | null;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAt: Date;
  updatedAt: Date;
  lockedAt: Date | null;
}

const visibleTo = (organizationId: string) => sql`(
  j.payload->>'organizationId' = ${organizationId}
  or lower(j.payload->>'fromAddress') in (
    select lower(address) from platform.wallets where organization_id = ${organizationId}
  )
)`;

const JOB_COLUMNS = sql`j.id::text as id, t.identifier as task, j.key, j.attempts, j.max_attempts as "maxAttempts",
  j.last_error as "lastError", j.run_at as "runAt", j.updated_at as "updatedAt", j.locked_at as "lockedAt"`;

/** The organisation's jobs by status: running, queued, scheduled, retrying, failed (attempts exhausted). */
export async function jobCountsByStatus(db: PlatformDb, organizationId: string): Promise<Record<string, number>> {
  const { rows } = await sql<{ status: string; count: number }>`
    select status, count(*)::int as count from (
      select case
        when j.locked_at is not null then 'running'
        when j.attempts >= j.max_attempts then 'failed'
        when j.attempts > 0 then 'retrying'
        when j.run_at > now() then 'scheduled'
        else 'queued' end as status
      from graphile_worker._private_jobs j
      where ${visibleTo(organizationId)}
    ) s group by status order by status`.execute(db);
  const counts: Record<string, number> = { queued: 0, scheduled: 0, running: 0, retrying: 0, failed: 0 };
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

/** The organisation's jobs that failed at least once, newest change first. */
export async function recentFailures(db: PlatformDb, organizationId: string, limit: number): Promise<JobRow[]> {
  const { rows } = await sql<JobRow>`
    select ${JOB_COLUMNS}
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where j.last_error is not null and ${visibleTo(organizationId)}
     order by j.updated_at desc, j.id desc limit ${limit}`.execute(db);
  return rows;
}

/** The organisation's job of a task under a job key (graphile-worker keeps at most one row per key). */
export async function jobsOf(db: PlatformDb, organizationId: string, task: string, key: string): Promise<JobRow[]> {
  const { rows } = await sql<JobRow>`
    select ${JOB_COLUMNS}
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = ${task} and j.key = ${key} and ${visibleTo(organizationId)}
     order by j.id`.execute(db);
  return rows;
}

/** The task identifiers graphile-worker knows (every task any worker process registered a job for). */
export async function taskIdentifiers(db: PlatformDb): Promise<string[]> {
  const { rows } = await sql<{ identifier: string }>`
    select identifier from graphile_worker._private_tasks order by identifier`.execute(db);
  return rows.map((row) => row.identifier);
}
