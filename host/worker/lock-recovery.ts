// Jobs locked by a worker process that died (SIGKILL, lost machine) are released as soon as its heartbeat stops,
// instead of after graphile-worker's 4-hour lock timeout; each worker process beats and recovers the others.
import type { WorkerUtils } from "graphile-worker";
import type pg from "pg";
import { databaseOutage } from "../db/outage.ts";
import type { Logger } from "../logger.ts";

export interface LockRecoveryOptions {
  beatMs: number;
  deadAfterMs: number;
}

/** Releases the jobs the given worker pools held, and forgets their heartbeats: they are known to have stopped. */
export async function releaseWorkerPools(utils: WorkerUtils, poolIds: string[]): Promise<void> {
  await utils.forceUnlockWorkers(poolIds);
  await utils.withPgClient((client) =>
    client.query("delete from platform.worker_heartbeats where pool_id = any($1)", [poolIds]),
  );
}

export function startLockRecovery(
  pool: pg.Pool,
  utils: WorkerUtils,
  poolId: string,
  logger: Logger,
  options: LockRecoveryOptions = { beatMs: 5_000, deadAfterMs: 20_000 },
) {
  const deadAfter = `${Math.ceil(options.deadAfterMs / 1000)} seconds`;
  async function tick() {
    await pool.query(
      `insert into platform.worker_heartbeats (pool_id, beat_at) values ($1, now())
       on conflict (pool_id) do update set beat_at = now()`,
      [poolId],
    );
    // Silent pools, and locks held by a pool that never beat (it died before its first heartbeat).
    const { rows } = await pool.query<{ id: string }>(
      `select pool_id as id from platform.worker_heartbeats where beat_at < now() - $1::interval
       union
       select distinct locked_by from graphile_worker.jobs
        where locked_by is not null and locked_at < now() - $1::interval
          and locked_by not in (select pool_id from platform.worker_heartbeats)`,
      [deadAfter],
    );
    const dead = rows.map((r) => r.id).filter((id) => id !== poolId);
    if (dead.length === 0) return;
    await releaseWorkerPools(utils, dead);
    logger.warn("released the jobs of stopped worker processes", { workers: dead });
  }
  // While the database is down: logged once, not every beat.
  const outage = databaseOutage(logger, "lock recovery");
  const beat = () =>
    tick()
      .then(() => outage.succeeded())
      .catch((e) => {
        if (outage.failed(e) === undefined) logger.warn("lock recovery failed", { error: String(e) });
      });
  const timer = setInterval(beat, options.beatMs);
  const first = beat();
  return {
    first,
    async stop() {
      clearInterval(timer);
      await pool.query("delete from platform.worker_heartbeats where pool_id = $1", [poolId]).catch(() => {});
    },
  };
}
