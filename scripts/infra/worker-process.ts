// The worker: its own Node process by default (WORKER_MODE=process), so a flood of API requests on the host cannot
// stretch a signer's sends apart; or inside the host process (WORKER_MODE=in-process).
import { makeWorkerUtils, type TaskList } from "graphile-worker";
import pg from "pg";
import type { Config } from "../../host/config.ts";
import type { Logger } from "../../host/logger.ts";
import { releaseWorkerPools } from "../../host/worker/lock-recovery.ts";
import { startWorker } from "../../host/worker/runner.ts";
import { CRONTAB, type RunningParts } from "../platform-context.ts";
import { keptUp, type NodeChild, startNodeChild } from "./node-child.ts";
import type { Supervisor } from "./supervisor.ts";

export interface Workers {
  /** Resolves once the worker takes jobs; rejects when it cannot start. */
  ready: Promise<void>;
  description: string;
  running(): boolean;
  stop(): Promise<void>;
}

/** A worker process's first message: ready, with the pool ids of its graphile-worker runners. */
export interface WorkerReady {
  ready: true;
  tasks: number;
  workerPools: string[];
}

/** A later message: a runner started again (after the database went away under the one before). */
export interface WorkerMessage {
  workerPool: string;
}

/**
 * A worker process that died (any exit but 0: a crash, SIGKILL, out of memory) had its runners' jobs locked: they are
 * released as soon as it is gone, not once lock recovery finds its heartbeat silent (WORKER_DEAD_AFTER_SECONDS), so
 * the writes it was sending go on within a second of its restart rather than 20-25 s later.
 */
function releaseJobsWhenDead(started: NodeChild<WorkerReady>, databaseUrl: string, logger: Logger) {
  const pools = new Set<string>();
  started.ready.then(
    (ready) => {
      for (const id of ready.workerPools ?? []) pools.add(id);
    },
    () => {},
  );
  started.child.process.on("message", (message: Partial<WorkerMessage>) => {
    if (typeof message?.workerPool === "string") pools.add(message.workerPool);
  });
  void started.child.exited.then(async (code) => {
    if (code === 0 || pools.size === 0) return;
    const workers = [...pools];
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    pool.on("error", () => {}); // the database going away meanwhile is a failed release, never a crash
    try {
      const utils = await makeWorkerUtils({ pgPool: pool });
      try {
        await releaseWorkerPools(utils, workers);
      } finally {
        await Promise.resolve(utils.release()).catch(() => {});
      }
      logger.warn("released the jobs of a worker process that died", { workers });
    } catch (error) {
      // Lock recovery releases them once the heartbeat is found silent.
      logger.warn("releasing a dead worker process's jobs failed", { workers, error: String(error) });
    } finally {
      await pool.end().catch(() => {});
    }
  });
}

export function startWorkers(options: {
  config: Config;
  env: NodeJS.ProcessEnv;
  parts: RunningParts;
  taskList: TaskList;
  logger: Logger;
  /** Restarts a worker process that exits unbidden. */
  supervisor: Supervisor;
}): Workers {
  const { config, parts, taskList, logger } = options;
  const tasks = Object.keys(taskList).length;
  if (config.WORKER_MODE === "in-process") {
    const started = startWorker(parts.databaseUrl, taskList, {
      concurrency: config.WORKER_CONCURRENCY,
      crontab: CRONTAB,
      logger,
      deadAfterSeconds: config.WORKER_DEAD_AFTER_SECONDS,
    });
    let running = true;
    return {
      ready: started.then(() => undefined),
      description: `graphile-worker in the host process, ${tasks} task(s), concurrency ${config.WORKER_CONCURRENCY}`,
      running: () => running,
      async stop() {
        running = false;
        await (await started.catch(() => undefined))?.stop();
      },
    };
  }
  // WORKER_PROCESSES of them on the one database: graphile-worker's locks give each job to one.
  const children = Array.from({ length: config.WORKER_PROCESSES }, (_, i) => {
    const start = () => {
      const started = startNodeChild<WorkerReady>({
        name: i === 0 ? "worker" : `worker-${i + 1}`,
        script: "worker.ts",
        config,
        env: options.env,
        parts,
      });
      releaseJobsWhenDead(started, parts.databaseUrl, logger);
      return started;
    };
    return keptUp(options.supervisor, start(), start);
  });
  const pids = children.map((c) => c.child.process.pid).join(", ");
  return {
    ready: Promise.all(children.map((c) => c.ready)).then(() => undefined),
    description: `graphile-worker process(es) ${pids}, ${tasks} task(s), concurrency ${config.WORKER_CONCURRENCY} each`,
    running: () => children.every((c) => c.running()),
    stop: async () => {
      await Promise.all(children.map((c) => c.stop()));
    },
  };
}
