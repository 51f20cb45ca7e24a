// The workflow engine's "deployments" on graphile-worker: each registration of a worker process (host/worker/
// deployment.ts) with its service URL; a process is live while its heartbeat (host/worker/lock-recovery.ts) is fresh.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";

/** As lock recovery decides it: a pool silent this long is dead and its jobs are handed on. */
const DEAD_AFTER = "20 seconds";

export interface Deployment {
  id: string;
  poolId: string;
  serviceUrl: string;
  createdAt: Date;
  live: boolean;
}

export async function listDeployments(db: PlatformDb): Promise<Deployment[]> {
  const { rows } = await sql<Deployment>`
    select d.id, d.pool_id as "poolId", d.service_url as "serviceUrl", d.created_at as "createdAt",
           coalesce(h.beat_at > now() - ${DEAD_AFTER}::interval, false) as live
      from platform.worker_deployments d left join platform.worker_heartbeats h on h.pool_id = d.pool_id
     order by d.created_at desc, d.id`.execute(db);
  return rows;
}

function matching(deployments: Deployment[], serviceUrl: string): Deployment[] {
  const found = deployments.filter((d) => d.serviceUrl === serviceUrl);
  if (found.length === 0) {
    throw new ApiError("WORKFLOW_ENGINE_DEPLOYMENT_NOT_FOUND", {
      message: `No deployment is registered for ${serviceUrl}`,
      details: { serviceUrl },
    });
  }
  return found;
}

/**
 * Registers the live worker process behind `serviceUrl` again (a new deployment id; old ones stay) and wakes every
 * worker to pick up due jobs at once (graphile-worker's own `jobs:insert` channel). Without `force`, a process
 * already registered within the last minute is not registered again: its newest deployment id is answered.
 */
export async function forceRedeploy(db: PlatformDb, serviceUrl: string, force: boolean): Promise<string> {
  const found = matching(await listDeployments(db), serviceUrl);
  const live = found.find((d) => d.live);
  if (!live) {
    throw new ApiError("WORKFLOW_ENGINE_DEPLOYMENT_NOT_FOUND", {
      message: `The worker process behind ${serviceUrl} is not running`,
      details: { serviceUrl },
    });
  }
  if (!force && Date.now() - new Date(found[0].createdAt).getTime() < 60_000) return found[0].id;
  const id = randomUUID();
  await sql`insert into platform.worker_deployments (id, pool_id, service_url)
    values (${id}, ${live.poolId}, ${serviceUrl})`.execute(db);
  await sql`select pg_notify('jobs:insert', '{"r":0,"count":1}')`.execute(db);
  return id;
}

/**
 * Keeps the deployments of `serviceUrl` and removes the rest: a dead process's jobs are released to the live workers
 * (graphile-worker's force_unlock_workers) and its rows deleted; a live process's only with `forceDrain` (its running
 * jobs are released too and may run again elsewhere: the platform's tasks are safe to run twice).
 */
export async function cleanupStaleDeployments(db: PlatformDb, serviceUrl: string, forceDrain: boolean) {
  const deployments = await listDeployments(db);
  const kept = matching(deployments, serviceUrl);
  const keptPools = new Set(kept.map((d) => d.poolId));
  const stale = deployments.filter((d) => d.serviceUrl !== serviceUrl && (forceDrain || !d.live));
  const drained = [...new Set(stale.map((d) => d.poolId))].filter((pool) => !keptPools.has(pool));
  if (drained.length > 0) {
    await sql`select graphile_worker.force_unlock_workers(${drained}::text[])`.execute(db);
    await sql`delete from platform.worker_heartbeats where pool_id = any(${drained}::text[])`.execute(db);
  }
  const ids = stale.map((d) => d.id);
  if (ids.length > 0) await sql`delete from platform.worker_deployments where id = any(${ids}::text[])`.execute(db);
  return { removed: ids.length, drained: drained.length };
}
