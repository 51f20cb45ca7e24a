// /healthz: the process is up. /readyz: database, chain, worker and index ready, the index at each chain's head (after
// a restart the indexer re-reads the newest blocks: an index behind may lack the latest writes), and the
// organisations that gate readiness (the local one `npm start` creates) have their system deployed and indexed on
// every served chain, so the first write after `ready` is accepted. While a new index build backfills, the views
// serve the previous one (host/db/index-builds.ts): ready, with `reindexing` naming both builds (reads may lag).
import type { ServedChain, ServedChains } from "./chain/served-chains.ts";
import { chainViewsExist } from "./db/chain-views.ts";
import type { Databases } from "./db/database.ts";
import { buildingIndexSchema, servedIndexSchema } from "./db/index-builds.ts";
import type { App } from "./http/env.ts";
import type { IndexStatus } from "./index-status.ts";

export interface Readiness {
  db: Databases;
  chains: ServedChains;
  index: IndexStatus;
  workerRunning: () => boolean;
  /** The supervisor's child processes (only the process that supervises them knows). */
  parts?: () => PartStatus[];
}

/** A supervised part (scripts/infra/supervisor.ts): whether it runs, how often it was restarted and why. */
export interface PartStatus {
  name: string;
  state: "running" | "restarting" | "stopped";
  restarts: number;
  /** Why it last exited or failed to start again ("signal SIGKILL", "exit code 1", "start failed: ..."). */
  lastExit: string | null;
}

/** An organisation's system on a chain, as readiness sees it. */
type SystemState = "ready" | "indexing" | "deploying" | "failed" | "missing";

/** Each check's limit: a part that does not answer by then (a stalled node, a hung database) reports false. */
export const CHECK_TIMEOUT_MS = 1_000;

/** `fn`'s answer, or `fallback` when it fails or takes longer than CHECK_TIMEOUT_MS. */
export async function within<T>(fn: () => Promise<T>, fallback: T, timeoutMs = CHECK_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([fn(), new Promise<T>((r) => (timer = setTimeout(() => r(fallback), timeoutMs)))]);
  } catch {
    return fallback;
  } finally {
    clearTimeout(timer);
  }
}

const check = (fn: () => Promise<boolean>): Promise<boolean> => within(fn, false);

/** What readiness reads of the platform's systems, once per report (a probe must stay cheap with many tenants). */
interface SystemsSnapshot {
  /** The gating organisations' system rows (an organisation with no row on a chain has no entry for it). */
  gating: { organizationId: string; chainId: number | null; status: string | null; systemAddress: string | null }[];
  /** Every organisation's systems, counted by chain and status. */
  counts: { chainId: number; status: "pending" | "ready" | "failed"; count: number }[];
}

function systemsSnapshot(r: Readiness): Promise<SystemsSnapshot | undefined> {
  return within(() => readSystems(r), undefined);
}

async function readSystems(r: Readiness): Promise<SystemsSnapshot | undefined> {
  try {
    const [gating, counts] = await Promise.all([
      r.db.platform
        .selectFrom("organizations as o")
        .leftJoin("organizationChains as oc", "oc.organizationId", "o.id")
        .select(["o.id as organizationId", "oc.chainId", "oc.status", "oc.systemAddress"])
        .where("o.gatesReadiness", "=", true)
        .execute(),
      r.db.platform
        .selectFrom("organizationChains")
        .select(["chainId", "status", (eb) => eb.fn.countAll<string>().as("count")])
        .groupBy(["chainId", "status"])
        .execute(),
    ]);
    return { gating, counts: counts.map((row) => ({ ...row, count: Number(row.count) })) };
  } catch {
    return undefined;
  }
}

async function systemIndexed(r: Readiness, chainId: number, systemAddress: string): Promise<boolean> {
  return check(
    async () =>
      !!(await r.db
        .ledgerOn(chainId)
        .selectFrom("system")
        .select("id")
        .where("id", "=", systemAddress.toLowerCase() as `0x${string}`)
        .executeTakeFirst()),
  );
}

/** From the least ready: the state a chain reports is its gating organisations' worst. */
const STATE_ORDER: SystemState[] = ["missing", "failed", "deploying", "indexing", "ready"];

/** The least ready of the gating organisations' systems on one chain, and every organisation's by status. */
async function systemsReport(r: Readiness, chainId: number, snapshot: SystemsSnapshot | undefined) {
  if (!snapshot) return { localSystem: "missing" as SystemState, counts: undefined };
  const counts = { ready: 0, pending: 0, failed: 0 };
  for (const row of snapshot.counts) if (row.chainId === chainId) counts[row.status] = row.count;
  const organizations = [...new Set(snapshot.gating.map((row) => row.organizationId))];
  // None yet: the first start has not created the local organisation, so nothing could be written.
  if (organizations.length === 0) return { localSystem: "missing" as SystemState, counts };
  const states = await Promise.all(
    organizations.map(async (organizationId): Promise<SystemState> => {
      const row = snapshot.gating.find((g) => g.organizationId === organizationId && g.chainId === chainId);
      if (!row?.status) return "missing";
      if (row.status === "failed") return "failed";
      if (row.status === "pending" || !row.systemAddress) return "deploying";
      return (await systemIndexed(r, chainId, row.systemAddress)) ? "ready" : "indexing";
    }),
  );
  const localSystem = STATE_ORDER.find((state) => states.includes(state)) as SystemState;
  return { localSystem, counts };
}

/** The build the views serve while another backfills (host/db/index-builds.ts); null when they serve the running one. */
async function reindexing(r: Readiness): Promise<{ serving: string; building: string } | null> {
  return within(async () => {
    const [serving, building] = await Promise.all([
      servedIndexSchema(r.db.pool, r.db.viewsSchema),
      buildingIndexSchema(r.db.pool, r.db.viewsSchema),
    ]);
    return serving && building ? { serving, building } : null;
  }, null);
}

/**
 * A served chain: its node's head, the index's block there, whether its views of the index exist, its systems. While
 * a previous build serves the views (`reindexing`) the index is not expected at the head: no indexer advances it.
 */
async function chainReport(
  r: Readiness,
  chain: ServedChain,
  snapshot: SystemsSnapshot | undefined,
  reindexing: boolean,
) {
  const [head, indexedBlock, views, systems] = await Promise.all([
    // Aborted at the limit: a stalled node's reads do not pile up behind the probes.
    within(() => chain.client.scope({ signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) }).getBlockNumber(), undefined),
    within(() => r.index.indexedBlock(chain.chainId), undefined),
    check(() => chainViewsExist(r.db.pool, r.db.viewsSchema, chain.chainId)),
    systemsReport(r, chain.chainId, snapshot),
  ]);
  const caughtUp = head !== undefined && indexedBlock !== undefined && BigInt(indexedBlock) >= head;
  return {
    chainId: chain.chainId,
    head: head?.toString() ?? null,
    indexedBlock: indexedBlock ?? null,
    reachable: head !== undefined,
    indexed: (caughtUp || reindexing) && views,
    localSystem: systems.localSystem,
    systems: systems.counts,
  };
}

export async function readinessReport(r: Readiness) {
  const [snapshot, builds] = await Promise.all([systemsSnapshot(r), reindexing(r)]);
  const [database, indexReady, chains] = await Promise.all([
    check(async () => (await r.db.pool.query("select 1")).rowCount === 1),
    check(() => r.index.isReady()),
    Promise.all(r.chains.all().map((chain) => chainReport(r, chain, snapshot, builds !== null))),
  ]);
  const checks = {
    database,
    chain: chains.every((c) => c.reachable),
    worker: r.workerRunning(),
    index: (indexReady || builds !== null) && chains.every((c) => c.indexed),
    systems: chains.every((c) => c.localSystem === "ready"),
  };
  const view = chains.map(({ chainId, head, indexedBlock, localSystem, systems }) => ({
    chainId,
    head,
    indexedBlock,
    localSystem,
    systems,
  }));
  return {
    ready: Object.values(checks).every(Boolean),
    checks,
    // The primary chain, then every served chain.
    chain: view[0],
    chains: view,
    // The views serve a previous index build (which may lag the chain) while this one backfills; null otherwise.
    reindexing: builds,
    ...(r.parts ? { parts: r.parts() } : {}),
  };
}

export function readinessRoutes(app: App, r: Readiness) {
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const report = await readinessReport(r);
    return c.json({ status: report.ready ? "ready" : "not-ready", ...report }, report.ready ? 200 : 503);
  });
}
