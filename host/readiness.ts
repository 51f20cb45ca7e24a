// /healthz: the process is up. /readyz: database, chain, worker and index all ready, index at the chain head.
import type { ChainService } from "./chain/chain-service.ts";
import { chainViewsExist } from "./db/chain-views.ts";
import type { Databases } from "./db/database.ts";
import type { App } from "./http/env.ts";
import type { IndexStatus } from "./index-status.ts";

export interface Readiness {
  db: Databases;
  chain: ChainService;
  index: IndexStatus;
  workerRunning: () => boolean;
}

async function check(fn: () => Promise<boolean>): Promise<boolean> {
  try {
    return await fn();
  } catch {
    return false;
  }
}

export async function readinessReport(r: Readiness) {
  const [database, head] = await Promise.all([
    check(async () => (await r.db.pool.query("select 1")).rowCount === 1),
    r.chain.client.getBlockNumber().catch(() => undefined),
  ]);
  const [indexReady, indexedBlock, chainViews] = await Promise.all([
    r.index.isReady(),
    r.index.indexedBlock(r.chain.chainId),
    check(() => chainViewsExist(r.db.pool, r.db.viewsSchema, r.chain.chainId)),
  ]);
  const caughtUp = head !== undefined && indexedBlock !== undefined && BigInt(indexedBlock) >= head;
  const checks = {
    database,
    chain: head !== undefined,
    worker: r.workerRunning(),
    index: indexReady && caughtUp && chainViews,
  };
  return {
    ready: Object.values(checks).every(Boolean),
    checks,
    chain: { chainId: r.chain.chainId, head: head?.toString() ?? null, indexedBlock: indexedBlock ?? null },
  };
}

export function readinessRoutes(app: App, r: Readiness) {
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const report = await readinessReport(r);
    return c.json({ status: report.ready ? "ready" : "not-ready", ...report }, report.ready ? 200 : 503);
  });
}
