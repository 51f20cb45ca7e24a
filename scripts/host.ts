// A further host process (HOST_PROCESSES > 1): the Hono host on HOST_PORT against the same database, chain and index
// as the supervisor's own, with its own caches, process-local timers and LISTEN connection. The running parts come
// from PLATFORM_PARTS (JSON of RunningParts); the rest of the configuration from the env.
import { createLogger } from "../host/logger.ts";
import { startTimers } from "../host/timers.ts";
import { stopWhenTold } from "./infra/stop-when-told.ts";
import { composed, createPlatformContext, loadPlatformConfig, type RunningParts } from "./platform-context.ts";
import { serveHost } from "./serve-host.ts";

const config = loadPlatformConfig(process.env);
const logger = createLogger(config.LOG_LEVEL).child({ component: "host-process" });
const parts = JSON.parse(process.env.PLATFORM_PARTS ?? "{}") as RunningParts;
const { ctx, chains, index, db } = createPlatformContext(config, parts, logger);
const timers = startTimers(composed.timers(ctx), logger);
// The supervisor watches the workers; this process reports on the database, the chain and the index.
const readiness = { db: ctx.db, chains, index, workerRunning: () => true };
const host = await serveHost({
  ctx,
  readiness,
  config,
  databaseUrl: parts.databaseUrl,
  port: Number(process.env.HOST_PORT ?? 0),
});
process.send?.({ ready: true, port: host.port });

stopWhenTold(async () => {
  await host.stop();
  await timers.stop();
  await db.close();
});
