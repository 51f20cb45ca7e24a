// /healthz: the process is up. /readyz: database, chain, worker and index all ready, index at the chain head.
import type { ServedChain, ServedChains } from "./chain/served-chains.ts";
import { chainViewsExist } from "./db/chain-views.ts";
import type { Databases } from "./db/database.ts";
import type { App } from "./http/env.ts";
import type { IndexStatus } from "./index-status.ts";

export interface Readiness {
  db: Databases;
  chains: ServedChains;
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

/** A served chain: its node's head, the index's block there, and whether its views of the index exist. */
async function chainReport(r: Readiness, chain: ServedChain) {
  const [head, indexedBlock, views] = await Promise.all([
    chain.client.getBlockNumber().catch(() => undefined),
    r.index.indexedBlock(chain.chainId),
    check(() => chainViewsExist(r.db.pool, r.db.viewsSchema, chain.chainId)),
  ]);
  const caughtUp = head !== undefined && indexedBlock !== undefined && BigInt(indexedBlock) >= head;
  return {
    chainId: chain.chainId,
    head: head?.toString() ?? null,
    indexedBlock: indexedBlock ?? null,
    reachable: head !== undefined,
    indexed: caughtUp && views,
  };
}

export async function readinessReport(r: Readiness) {
  const [database, indexReady, chains] = await Promise.all([
    check(async () => (await r.db.pool.query("select 1")).rowCount === 1),
    r.index.isReady(),
    Promise.all(r.chains.all().map((chain) => chainReport(r, chain))),
  ]);
  const checks = {
    database,
    chain: chains.every((c) => c.reachable),
    worker: r.workerRunning(),
    index: indexReady && chains.every((c) => c.indexed),
  };
  const view = chains.map(({ chainId, head, indexedBlock }) => ({ chainId, head, indexedBlock }));
  return {
    ready: Object.values(checks).every(Boolean),
    checks,
    // The primary chain, then every served chain.
    chain: view[0],
    chains: view,
  };
}

export function readinessRoutes(app: App, r: Readiness) {
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const report = await readinessReport(r);
    return c.json({ status: report.ready ? "ready" : "not-ready", ...report }, report.ready ? 200 : 503);
  });
}
