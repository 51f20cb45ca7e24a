// The doctor readout (spec: Workflow-engine doctor readout) mapped onto graphile-worker: ingress = this API's own
// health endpoint, admin = the worker schema, deployments = registered worker processes, services = task
// identifiers, invocations = the organisation's jobs by status and its 20 most recent failures.
import { createRequire } from "node:module";
import { sql } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";
import { listDeployments } from "./deployments.ts";
import { toServiceName } from "./service-names.ts";
import { jobCountsByStatus, recentFailures, taskIdentifiers } from "./visible-jobs.ts";

const GRAPHILE_WORKER_VERSION: string = createRequire(import.meta.url)("graphile-worker/package.json").version;
const RECENT_FAILURES = 20;

type Status = "ok" | "unreachable" | "degraded";

async function timed<T>(work: () => Promise<T>): Promise<{ value?: T; latencyMs: number | null; error?: string }> {
  const started = performance.now();
  try {
    const value = await work();
    return { value, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return { latencyMs: null, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A component that failed to read answers `unreachable` with its error instead of failing the readout. */
async function component<T extends object>(read: () => Promise<T & { status?: Status }>) {
  try {
    return { status: "ok" as Status, ...(await read()), error: null };
  } catch (error) {
    return {
      status: "unreachable" as Status,
      items: [],
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

export async function doctor(db: PlatformDb, healthUrl: string, organizationId: string) {
  const ingress = await timed(async () => {
    const res = await fetch(healthUrl, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`${healthUrl} answered ${res.status}`);
  });
  const admin = await timed(() => sql`select max(id) from graphile_worker.migrations`.execute(db));
  const deployments = await component(async () => {
    const rows = await listDeployments(db);
    return {
      // A registered process that stopped beating is listed (until cleaned up) and makes the component degraded.
      status: (rows.some((d) => !d.live) ? "degraded" : "ok") as Status,
      items: rows.map((d) => ({ id: d.id, serviceUrl: d.serviceUrl, createdAt: new Date(d.createdAt).toISOString() })),
    };
  });
  const services = await component(async () => ({
    items: (await taskIdentifiers(db)).map((identifier) => ({ name: toServiceName(identifier) })),
  }));
  const invocations = await component(async () => {
    // One snapshot for both reads: a job failing between them would otherwise be listed but not counted.
    const [byStatus, failures] = await db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(
        async (trx) =>
          [
            await jobCountsByStatus(trx, organizationId),
            await recentFailures(trx, organizationId, RECENT_FAILURES),
          ] as const,
      );
    return {
      status: (byStatus.failed > 0 ? "degraded" : "ok") as Status,
      byStatus,
      recentFailures: failures.map((job) => ({
        id: job.id,
        serviceName: toServiceName(job.task),
        serviceKey: job.key === null ? null : toServiceName(job.key),
        failedAt: new Date(job.updatedAt).toISOString(),
        errorMessage: job.lastError,
      })),
    };
  });
  return {
    ingress: { status: (ingress.error ? "unreachable" : "ok") as Status, latencyMs: ingress.latencyMs },
    admin: {
      status: (admin.error ? "unreachable" : "ok") as Status,
      latencyMs: admin.latencyMs,
      version: admin.error ? null : GRAPHILE_WORKER_VERSION,
    },
    deployments,
    services,
    invocations,
  };
}
