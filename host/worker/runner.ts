// graphile-worker in this process: the tasks of the host and of every plugin, their schedules, and recovery of
// jobs left locked by worker processes that died. A runner that stops by itself (the database went away under it:
// graphile-worker gives up when it cannot record a job's outcome) is started again once the database is back, so the
// process survives a database restart.
import { EventEmitter } from "node:events";
import { makeWorkerUtils, type Runner, run, type TaskList, type WorkerEvents, type WorkerUtils } from "graphile-worker";
import pg from "pg";
import { backoffDelay, interruptibleSleep } from "../backoff.ts";
import { databaseOutage, isDatabaseUnavailable, OUTAGE_BACKOFF } from "../db/outage.ts";
import type { Logger } from "../logger.ts";
import { registerWorkerDeployment } from "./deployment.ts";
import { withKeyedJobBarrier } from "./keyed-job-barrier.ts";
import { startLockRecovery } from "./lock-recovery.ts";
import { workerLogger } from "./worker-logger.ts";

export interface WorkerProcess {
  stop(): Promise<void>;
}

interface RunnerOptions {
  concurrency: number;
  crontab: string;
  logger: Logger;
  /** How long a worker process's heartbeat may stay silent before its jobs are released (default 20). */
  deadAfterSeconds?: number;
  /** Told each runner's graphile-worker pool id as it starts (the first, and each one started again). */
  onPool?: (poolId: string) => void;
}

interface StartedRunner {
  runner: Runner;
  poolId: string;
  utils: WorkerUtils;
  /** Stops the runner (also one that already stopped by itself), its lock recovery and utilities. */
  stop(): Promise<void>;
}

async function startRunner(pool: pg.Pool, taskList: TaskList, options: RunnerOptions): Promise<StartedRunner> {
  const log = options.logger;
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
    logger: workerLogger(log),
  });
  runner.promise.catch(() => {}); // watched by startWorker
  let utils: WorkerUtils | undefined;
  let recovery: ReturnType<typeof startLockRecovery> | undefined;
  const stop = async () => {
    await runner.stop().catch(() => {}); // a runner that gave up has stopped already
    await recovery?.stop();
    await Promise.resolve(utils?.release()).catch(() => {});
  };
  try {
    utils = await makeWorkerUtils({ pgPool: pool });
    const deadAfterMs = (options.deadAfterSeconds ?? 20) * 1000;
    recovery = startLockRecovery(pool, utils, poolId ?? "unknown", log, { beatMs: deadAfterMs / 4, deadAfterMs });
    await recovery.first;
    await registerWorkerDeployment(pool, poolId ?? "unknown");
    options.onPool?.(poolId ?? "unknown");
  } catch (error) {
    await stop();
    throw error;
  }
  return { runner, poolId: poolId ?? "unknown", utils, stop };
}

/** The runners of this process, told when a job's outcome could not be recorded. */
const lostOutcomeListeners = new Set<(reason: string) => void>();
let lostOutcomesWatched = false;

/**
 * graphile-worker records a failed job's outcome without awaiting it: when the database is gone that promise (a 57P01
 * or ECONNREFUSED from batchFailJobs) rejects unhandled, which would end the process, and the job stays locked by a
 * runner that lives on. Such a rejection makes the runners start anew instead (their jobs released). Any other
 * unhandled rejection still ends the process, as Node's default does.
 */
function watchLostOutcomes() {
  if (lostOutcomesWatched) return;
  lostOutcomesWatched = true;
  process.on("unhandledRejection", (reason) => {
    if (!isDatabaseUnavailable(reason)) throw reason;
    for (const listener of lostOutcomeListeners) listener(String(reason));
  });
}

/** The runner gets its own pool with pg's default type parsing (the platform pool turns int8 into bigint). */
export async function startWorker(
  databaseUrl: string,
  taskList: TaskList,
  options: RunnerOptions,
): Promise<WorkerProcess> {
  const log = options.logger.child({ component: "worker" });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.concurrency + 3 });
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  watchLostOutcomes();
  let lostOutcome = (_reason: string) => {};
  const onLostOutcome = (reason: string) => lostOutcome(reason);
  lostOutcomeListeners.add(onLostOutcome);
  const runnerOptions = { ...options, logger: log };
  let current = await startRunner(pool, taskList, runnerOptions);
  let stopped = false;
  const { sleep, wake } = interruptibleSleep();

  /** After the runner stops by itself or loses a job's outcome: a new one, tried with backoff until the database takes it. */
  async function keepRunning() {
    for (;;) {
      const failure = await Promise.race([
        current.runner.promise.then(
          () => "stopped by itself",
          (error: unknown) => String(error),
        ),
        new Promise<string>((resolve) => {
          lostOutcome = (reason) => resolve(`a job's outcome was lost: ${reason}`);
        }),
      ]);
      if (stopped) return;
      log.warn("worker runner stopped; starting a new one", { reason: failure });
      const gone = current;
      await gone.stop();
      const outage = databaseOutage(log, "worker runner");
      for (let attempt = 1; ; attempt++) {
        await sleep(backoffDelay(OUTAGE_BACKOFF, attempt));
        if (stopped) return;
        try {
          current = await startRunner(pool, taskList, runnerOptions);
          if (stopped) return void (await current.stop()); // stop() came meanwhile and stopped the one before
        } catch (error) {
          if (outage.failed(error) === undefined) log.warn("worker runner start failed", { error: String(error) });
          continue;
        }
        outage.succeeded();
        // The jobs the stopped runner held: released now rather than when its heartbeat is found silent.
        await current.utils.forceUnlockWorkers([gone.poolId]).catch(() => {});
        log.info("worker runner started again", { attempt });
        break;
      }
    }
  }
  const running = keepRunning().catch((error) =>
    log.error("worker runner supervision failed", { error: String(error) }),
  );

  return {
    async stop() {
      lostOutcomeListeners.delete(onLostOutcome);
      stopped = true;
      wake();
      await current.stop();
      await running;
      await pool.end();
    },
  };
}
