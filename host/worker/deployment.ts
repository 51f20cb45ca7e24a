// A worker process registers itself (its graphile-worker pool) under a service URL naming the process, so operators
// can tell worker processes apart (plugins/workflow-engine: doctor, force-redeploy, cleanup-stale-deployments).
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type pg from "pg";

/** This process's identity as a URL: the machine and the process id. */
export function workerServiceUrl(): string {
  return `worker://${hostname()}/${process.pid}`;
}

export async function registerWorkerDeployment(pool: pg.Pool, poolId: string, serviceUrl = workerServiceUrl()) {
  const id = randomUUID();
  await pool.query("insert into platform.worker_deployments (id, pool_id, service_url) values ($1, $2, $3)", [
    id,
    poolId,
    serviceUrl,
  ]);
  return id;
}
