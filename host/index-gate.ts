// Whether a chain's index may answer a request. After a start (or an indexer restart, before which the supervisor
// drops the chain views) the views are missing until the indexer is ready, and then the index still lacks the
// newest blocks (Ponder re-reads its unfinalised ones after `ready`): a read would answer 500 or a 404 for a token
// that exists. Until the views are published and the index has reached the chain's head, requestChain answers
// 503 INDEXER_REINDEXING with Retry-After instead (after waiting up to `catchUpMs` for the catch-up, unless the
// client opted in with `Prefer: handling=strict`); once caught up the gate stays open for that publication.
// Blue/green index builds (host/db/index-builds.ts): while a new build backfills, the views serve the previous one,
// which no indexer advances: the gate is open on it (reads answer, from an index that may lag the chain), and stays
// open when the views switch to the new build, which the supervisor does only once that build is at the head.
import type { ServedChains } from "./chain/served-chains.ts";
import { chainViewsPublication } from "./db/chain-views.ts";
import type { Databases } from "./db/database.ts";
import { buildingIndexSchema } from "./db/index-builds.ts";
import { ApiError } from "./errors/api-error.ts";
import { STRICT_HANDLING_APPLIED } from "./http/prefer.ts";
import type { IndexStatus } from "./index-status.ts";

export const INDEX_RETRY_AFTER_SECONDS = 1;

/** The typed answer while a chain's index cannot be read yet (`strict`: to a client's `Prefer: handling=strict`). */
export function indexNotReady(chainId?: number, strict = false): ApiError {
  return new ApiError("INDEXER_REINDEXING", {
    message: "The index is catching up with the chain after a start; retry after Retry-After",
    headers: {
      "Retry-After": String(INDEX_RETRY_AFTER_SECONDS),
      ...(strict ? { "Preference-Applied": STRICT_HANDLING_APPLIED } : {}),
    },
    details: { retryAfterSeconds: INDEX_RETRY_AFTER_SECONDS, ...(chainId === undefined ? {} : { chainId }) },
  });
}

/** What the gate reads of the running parts. */
export interface IndexGateProbes {
  /** The chain views' publication in place (host/db/chain-views.ts chainViewsPublication), null while none. */
  publication(chainId: number): Promise<string | null>;
  /** The index build backfilling while the views serve a previous one (buildingIndexSchema), null when none. */
  building(): Promise<string | null>;
  /** The chain's head; rejects when the node does not answer within `timeoutMs`. */
  head(chainId: number, timeoutMs: number): Promise<bigint>;
  /** Whether the index reaches `block` within `timeoutMs` (IndexStatus.waitForBlock). */
  waitForBlock(chainId: number, block: bigint, timeoutMs: number): Promise<boolean>;
}

/** The probes of a running platform: its database's views, its nodes, its indexer's status. */
export function platformProbes(parts: { db: Databases; chains: ServedChains; index: IndexStatus }): IndexGateProbes {
  return {
    publication: (chainId) => chainViewsPublication(parts.db.pool, parts.db.viewsSchema, chainId),
    building: () => buildingIndexSchema(parts.db.pool, parts.db.viewsSchema),
    head: (chainId, timeoutMs) =>
      parts.chains
        .get(chainId)
        .client.scope({ signal: AbortSignal.timeout(timeoutMs) })
        .getBlockNumber(),
    waitForBlock: (chainId, block, timeoutMs) => parts.index.waitForBlock(chainId, block, timeoutMs),
  };
}

export interface IndexGateTiming {
  /** Each probe's limit (the views, the head). */
  probeMs: number;
  /** How long a request waits for a closed gate's index to reach its target before it is answered 503. */
  catchUpMs: number;
  /** An open gate checks its publication is still the one it saw caught up at most this often. */
  recheckMs: number;
  /** A closed one checks again at most this often (a flood of requests while starting shares the checks). */
  closedRecheckMs: number;
}

export interface IndexGate {
  /**
   * Resolves when `chainId`'s index can be read; else throws 503 INDEXER_REINDEXING (indexNotReady), at once with
   * `noWait` (the client's `Prefer: handling=strict`) rather than after waiting for the index to catch up.
   */
  enter(chainId: number, options?: { noWait?: boolean }): Promise<void>;
  /** A read found `chainId`'s views missing: the next request checks again (a new publication must catch up). */
  viewsMissing(chainId: number): void;
}

interface ChainGate {
  /** The publication seen caught up with the chain (or serving a previous build meanwhile); undefined while closed. */
  open?: string;
  /** The open publication serves a previous build while a new one backfills: it may lag the chain. */
  stale?: boolean;
  /**
   * What a closed gate waits for: the chain's head when it first saw this publication. Not the moving head: under a
   * burst of writes (a block each) the index is always a few blocks behind, yet has re-read what a restart rewound.
   */
  target?: { publication: string; head: bigint };
  /** When the running check's catch-up wait ends. */
  catchUpUntil?: number;
  checkedAt: number;
  /** The running check's probes (views, build, head): resolves true when the catch-up wait follows. */
  probing?: Promise<boolean>;
  /** The whole running check, the catch-up wait included. */
  checking?: Promise<void>;
}

const DEFAULT_TIMING: IndexGateTiming = { probeMs: 1_000, catchUpMs: 5_000, recheckMs: 1_000, closedRecheckMs: 100 };

export function createIndexGate(probes: IndexGateProbes, timing: IndexGateTiming = DEFAULT_TIMING): IndexGate {
  const chains = new Map<number, ChainGate>();
  const within = <T>(promise: Promise<T>, fallback: T, ms = timing.probeMs) =>
    Promise.race([promise, new Promise<T>((r) => setTimeout(() => r(fallback), ms).unref())]).catch(() => fallback);

  /**
   * Opens on a publication whose index has reached the head, or that serves a previous build while a new one
   * backfills; keeps it open while that publication stays (or while the database is too slow to say: a loaded pool
   * is no sign of a restarted indexer). True when the publication must now be waited for (catchUp).
   */
  async function probe(chainId: number, gate: ChainGate): Promise<boolean> {
    const [publication, building] = await Promise.all([
      within(probes.publication(chainId), undefined),
      within(probes.building(), undefined),
    ]);
    if (publication === undefined || building === undefined) return false;
    const wasStale = gate.open !== undefined && gate.stale === true;
    gate.stale = false;
    if (publication !== null && building !== null) {
      gate.open = publication;
      gate.stale = true;
      return false;
    }
    if (publication !== null && (publication === gate.open || wasStale)) {
      // The views switched from the previous build to the new one: published only once it was at the head.
      gate.open = publication;
      return false;
    }
    gate.open = undefined;
    if (publication === null) return false;
    if (gate.target?.publication !== publication) {
      const head = await within(probes.head(chainId, timing.probeMs), undefined);
      if (head === undefined) return false;
      gate.target = { publication, head };
    }
    // Already there (one read of the indexer's status): no wait, also for a client that would not wait. Its time
    // counts towards the catch-up wait.
    gate.catchUpUntil = Date.now() + timing.catchUpMs;
    if (await within(probes.waitForBlock(chainId, gate.target.head, 0), false)) {
      gate.open = publication;
      return false;
    }
    return true;
  }

  async function catchUp(chainId: number, gate: ChainGate) {
    const target = gate.target;
    if (!target) return;
    const ms = Math.max(0, (gate.catchUpUntil ?? 0) - Date.now());
    if (await within(probes.waitForBlock(chainId, target.head, ms), false, ms)) gate.open = target.publication;
  }

  const gateOf = (chainId: number) => {
    const gate = chains.get(chainId) ?? { checkedAt: 0 };
    chains.set(chainId, gate);
    return gate;
  };

  return {
    async enter(chainId, options = {}) {
      const gate = gateOf(chainId);
      const every = gate.open === undefined ? timing.closedRecheckMs : timing.recheckMs;
      if (Date.now() - gate.checkedAt >= every && !gate.checking) {
        // One check at a time per chain: concurrent requests share it.
        const probing = probe(chainId, gate);
        gate.probing = probing;
        gate.checking = probing
          .then((wait) => (wait ? catchUp(chainId, gate) : undefined))
          .finally(() => {
            gate.checkedAt = Date.now();
            gate.checking = undefined;
            gate.probing = undefined;
          });
      }
      // An opted-in client waits for the probes only, not for the index to catch up.
      if (options.noWait) await gate.probing;
      else if (gate.checking) await gate.checking;
      if (gate.open === undefined) throw indexNotReady(chainId, options.noWait);
    },
    viewsMissing(chainId) {
      const gate = gateOf(chainId);
      gate.open = undefined;
      gate.stale = false;
      gate.checkedAt = 0;
    },
  };
}
