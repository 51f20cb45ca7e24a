// The worker: its own Node process by default (WORKER_MODE=process), so a flood of API requests on the host cannot
// stretch a signer's sends apart; or inside the host process (WORKER_MODE=in-process).
import { join, resolve } from "node:path";
import type { TaskList } from "graphile-worker";
import type { Config } from "../../host/config.ts";
import type { Logger } from "../../host/logger.ts";
import { startWorker } from "../../host/worker/runner.ts";
import { CRONTAB, type RunningParts } from "../platform-context.ts";
import { startChild } from "./child-process.ts";

const ROOT = resolve(import.meta.dirname, "../..");

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
}): Workers {
  const { config, parts, taskList, logger } = options;
  const tasks = Object.keys(taskList).length;
  if (config.WORKER_MODE === "in-process") {
    const started = startWorker(parts.databaseUrl, taskList, {
      concurrency: config.WORKER_CONCURRENCY,
      crontab: CRONTAB,
      logger,
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
  const logFile = join(config.dataDir, "logs", "worker.log");
  const child = startChild("worker", process.execPath, ["--import", "tsx", join(ROOT, "scripts/worker.ts")], {
    cwd: ROOT,
    env: { ...options.env, PLATFORM_PARTS: JSON.stringify(parts) },
    logFile,
    dataDir: config.dataDir,
    ipc: true,
  });
  const ready = new Promise<void>((resolveReady, fail) => {
    const timer = setTimeout(() => fail(new Error(`The worker process did not start in 60 s; see ${logFile}`)), 60_000);
    child.process.once("message", () => {
      clearTimeout(timer);
      resolveReady();
    });
    void child.exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`The worker process exited with code ${code} during start; see ${logFile}`));
    });
  });
  ready.catch(() => {}); // awaited by the supervisor; never an unhandled rejection meanwhile
  return {
    ready,
    description: `graphile-worker process ${child.process.pid}, ${tasks} task(s), concurrency ${config.WORKER_CONCURRENCY}`,
    running: () => child.process.exitCode === null && child.process.signalCode === null,
    stop: () => child.stop(),
  };
}
