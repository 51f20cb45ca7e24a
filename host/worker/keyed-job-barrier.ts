// A keyed job's run starts once every submission that folded into the job has committed: those hold the key's lock
// shared until their commit (platform.fold_into_keyed_job); taking it exclusively, for one statement, waits for them.
// Submissions that start later see the job as taken and add a new one, so no folded row goes unread.
import type { Task, TaskList } from "graphile-worker";

export const keyedJobLockSql = "select pg_advisory_xact_lock(platform.keyed_job_lock($1))";

export function withKeyedJobBarrier(tasks: TaskList): TaskList {
  const wrapped: TaskList = {};
  for (const [name, task] of Object.entries(tasks)) {
    if (!task) continue;
    wrapped[name] = (async (payload, helpers) => {
      const key = helpers.job.key;
      if (key) await helpers.query(keyedJobLockSql, [key]);
      return task(payload, helpers);
    }) satisfies Task;
  }
  return wrapped;
}
