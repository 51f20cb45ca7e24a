// graphile-worker's own schema, migrated at start before anything can queue a job: the host accepts writes (and the
// start creates its organisation) while the worker processes are still starting.
import { runMigrations } from "graphile-worker";
import type pg from "pg";
import type { Logger } from "../logger.ts";
import { workerLogger } from "./worker-logger.ts";

export async function migrateWorkerSchema(pool: pg.Pool, log: Logger): Promise<void> {
  await runMigrations({ pgPool: pool, logger: workerLogger(log) });
}
