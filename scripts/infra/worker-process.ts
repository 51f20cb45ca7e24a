// The worker: its own Node process by default (WORKER_MODE=process), so a flood of API requests on the host cannot
// stretch a signer's sends apart; or inside the host process (WORKER_MODE=in-process).
import type { TaskList } from "graphile-worker";
import type { Config } from "../../host/config.ts";
import type { Logger } from "../../host/logger.ts";
import { startWorker } from "../../host/worker/runner.ts";
import { CRONTAB, type RunningParts } from "../platform-context.ts";
import { keptUp, startNodeChild } from "./node-child.ts";
import type { Supervisor } from "./supervisor.ts";

export interface Workers {
  /** Resolves once the worker takes jobs; rejects when it cannot start. */
  ready: Promise<void>;
  description: string;
  running(): boolean;
  stop(): Promise<void>;
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
    const start = () =>
      startNodeChild({
        name: i === 0 ? "worker" : `worker-${i + 1}`,
        script: "worker.ts",
        config,
        env: options.env,
        parts,
      });
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
