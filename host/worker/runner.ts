// graphile-worker in this process: the tasks of the host and of every plugin, their schedules, and recovery of
// jobs left locked by worker processes that died.
import { EventEmitter } from "node:events";
import {
  makeWorkerUtils,
  type Runner,
  run,
  type TaskList,
  type WorkerEvents,
  Logger as WorkerLogger,
} from "graphile-worker";
import pg from "pg";
import type { Logger } from "../logger.ts";
import { registerWorkerDeployment } from "./deployment.ts";
import { withKeyedJobBarrier } from "./keyed-job-barrier.ts";
import { startLockRecovery } from "./lock-recovery.ts";

export interface WorkerProcess {
  runner: Runner;
  stop(): Promise<void>;
}

/** The runner gets its own pool with pg's default type parsing (the platform pool turns int8 into bigint). */
export async function startWorker(
  databaseUrl: string,
  taskList: TaskList,
  options: { concurrency: number; crontab: string; logger: Logger },
): Promise<WorkerProcess> {
  const log = options.logger.child({ component: "worker" });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.concurrency + 3 });
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const events: WorkerEvents = new EventEmitter();
  let poolId: string | undefined;
  events.on("pool:create", ({ workerPool }) => {
    poolId = workerPool.id;
  });
  const runner = await run({
    pgPool: pool,
    taskList: withKeyedJobBarrier(taskList),
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: 1_000,
    crontab: options.crontab,
    events,
    logger: new WorkerLogger(() => (level, message, meta) => {
      if (level === "error") log.error(message, meta);
      else if (level === "warning") log.warn(message, meta);
      else log.debug(message, meta);
    }),
  });
  const utils = await makeWorkerUtils({ pgPool: pool });
  const recovery = startLockRecovery(pool, utils, poolId ?? "unknown", log);
  await recovery.first;
  await registerWorkerDeployment(pool, poolId ?? "unknown");
  return {
    runner,
    async stop() {
      await runner.stop();
      await recovery.stop();
      await utils.release();
      await pool.end();
    },
  };
}
