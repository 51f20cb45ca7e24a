// graphile-worker in the host process: the tasks of the host and of every plugin.
import { type Runner, run, type TaskList, Logger as WorkerLogger } from "graphile-worker";
import pg from "pg";
import type { Logger } from "../logger.ts";

/** The runner gets its own pool with pg's default type parsing (the platform pool turns int8 into bigint). */
export async function startWorker(
  databaseUrl: string,
  taskList: TaskList,
  concurrency: number,
  logger: Logger,
): Promise<{ runner: Runner; pool: pg.Pool }> {
  const log = logger.child({ component: "worker" });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: concurrency + 2 });
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const runner = await run({
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
  return { runner, pool };
}
