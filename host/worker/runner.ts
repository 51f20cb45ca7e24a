// graphile-worker in the host process: the tasks of the host and of every plugin.
import { type Runner, run, type TaskList, Logger as WorkerLogger } from "graphile-worker";
import type pg from "pg";
import type { Logger } from "../logger.ts";

export async function startWorker(
  pool: pg.Pool,
  taskList: TaskList,
  concurrency: number,
  logger: Logger,
): Promise<Runner> {
  const log = logger.child({ component: "worker" });
  return run({
    pgPool: pool,
    taskList,
    concurrency,
    noHandleSignals: true,
    pollInterval: 1_000,
    parsedCronItems: [],
    logger: new WorkerLogger(() => (level, message, meta) => {
      if (level === "error") log.error(message, meta);
      else if (level === "warning") log.warn(message, meta);
      else log.debug(message, meta);
    }),
  });
}
