// A worker process: graphile-worker running the host's and the plugins' tasks against the platform database. The
// supervisor starts one (WORKER_MODE=process) so the writes' send and confirmation runs keep their pace while the
// host answers a flood of requests; more can run on other machines against the same database.
// The running parts come from PLATFORM_PARTS (JSON of RunningParts); the rest of the configuration from the env.
import { createLogger } from "../host/logger.ts";
import { startWorker } from "../host/worker/runner.ts";
import { stopWhenTold } from "./infra/stop-when-told.ts";
import type { WorkerMessage, WorkerReady } from "./infra/worker-process.ts";
import { CRONTAB, createPlatformContext, loadPlatformConfig, type RunningParts } from "./platform-context.ts";

const config = loadPlatformConfig(process.env);
const logger = createLogger(config.LOG_LEVEL).child({ component: "worker-process" });
const parts = JSON.parse(process.env.PLATFORM_PARTS ?? "{}") as RunningParts;
const { db, taskList } = createPlatformContext(config, parts, logger);
// The supervisor is told each runner's pool id: should this process die, it releases their jobs at once.
const workerPools: string[] = [];
let readySent = false;
const worker = await startWorker(parts.databaseUrl, taskList, {
  concurrency: config.WORKER_CONCURRENCY,
  crontab: CRONTAB,
  logger,
  deadAfterSeconds: config.WORKER_DEAD_AFTER_SECONDS,
  onPool: (poolId) => {
    workerPools.push(poolId);
    if (readySent) process.send?.({ workerPool: poolId } satisfies WorkerMessage);
  },
});
process.send?.({ ready: true, tasks: Object.keys(taskList).length, workerPools } satisfies WorkerReady);
readySent = true;

// Dying with the supervisor: jobs this process held are released by lock recovery once its heartbeat stops (by the
// supervisor at once when this process dies under it); stored signed bytes are resumed, never signed twice.
stopWhenTold(async () => {
  await worker.stop();
  await db.close();
});
