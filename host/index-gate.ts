// Whether a chain's index may answer a request. After a start (or an indexer restart, before which the supervisor
// drops the chain views) the views are missing until the indexer is ready, and then the index still lacks the
// newest blocks (Ponder re-reads its unfinalised ones after `ready`): a read would answer 500 or a 404 for a token
// that exists. Until the views are published and the index has reached the chain's head, requestChain answers
// 503 INDEXER_REINDEXING with Retry-After instead; once caught up the gate stays open for that publication.
import type { ServedChains } from "./chain/served-chains.ts";
import { chainViewsPublication } from "./db/chain-views.ts";
import type { Databases } from "./db/database.ts";
import { ApiError } from "./errors/api-error.ts";
import type { IndexStatus } from "./index-status.ts";

export const INDEX_RETRY_AFTER_SECONDS = 1;

/** The typed answer while a chain's index cannot be read yet. */
export function indexNotReady(chainId?: number): ApiError {
  return new ApiError("INDEXER_REINDEXING", {
    message: "The index is catching up with the chain after a start; retry after Retry-After",
    headers: { "Retry-After": String(INDEX_RETRY_AFTER_SECONDS) },
    details: { retryAfterSeconds: INDEX_RETRY_AFTER_SECONDS, ...(chainId === undefined ? {} : { chainId }) },
  });
}

/** What the gate reads of the running parts. */
export interface IndexGateProbes {
  /** The chain views' publication in place (host/db/chain-views.ts chainViewsPublication), null while none. */
  publication(chainId: number): Promise<string | null>;
  /** The chain's head; rejects when the node does not answer within `timeoutMs`. */
  head(chainId: number, timeoutMs: number): Promise<bigint>;
  /** Whether the index reaches `block` within `timeoutMs` (IndexStatus.waitForBlock). */
  waitForBlock(chainId: number, block: bigint, timeoutMs: number): Promise<boolean>;
}

/** The probes of a running platform: its database's views, its nodes, its indexer's status. */
export function platformProbes(parts: { db: Databases; chains: ServedChains; index: IndexStatus }): IndexGateProbes {
  return {
    publication: (chainId) => chainViewsPublication(parts.db.pool, parts.db.viewsSchema, chainId),
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
  /** Resolves when `chainId`'s index can be read; else throws 503 INDEXER_REINDEXING (indexNotReady). */
  enter(chainId: number): Promise<void>;
  /** A read found `chainId`'s views missing: the next request checks again (a new publication must catch up). */
  viewsMissing(chainId: number): void;
}

interface ChainGate {
  /** The publication seen caught up with the chain; undefined while closed. */
  open?: string;
  /**
   * What a closed gate waits for: the chain's head when it first saw this publication. Not the moving head: under a
   * burst of writes (a block each) the index is always a few blocks behind, yet has re-read what a restart rewound.
   */
  target?: { publication: string; head: bigint };
  checkedAt: number;
  checking?: Promise<void>;
}

const DEFAULT_TIMING: IndexGateTiming = { probeMs: 1_000, catchUpMs: 5_000, recheckMs: 1_000, closedRecheckMs: 100 };

export function createIndexGate(probes: IndexGateProbes, timing: IndexGateTiming = DEFAULT_TIMING): IndexGate {
  const chains = new Map<number, ChainGate>();
  const within = <T>(promise: Promise<T>, fallback: T, ms = timing.probeMs) =>
    Promise.race([promise, new Promise<T>((r) => setTimeout(() => r(fallback), ms).unref())]).catch(() => fallback);

  /**
   * Opens on a publication whose index has reached the head; keeps it open while that publication stays (or while
   * the database is too slow to say: a loaded pool is no sign of a restarted indexer).
   */
  async function check(chainId: number, gate: ChainGate) {
    const publication = await within(probes.publication(chainId), undefined);
    if (publication === undefined || (publication !== null && publication === gate.open)) return;
    gate.open = undefined;
    if (publication === null) return;
    if (gate.target?.publication !== publication) {
      const head = await within(probes.head(chainId, timing.probeMs), undefined);
      if (head === undefined) return;
      gate.target = { publication, head };
    }
    const caughtUp = probes.waitForBlock(chainId, gate.target.head, timing.catchUpMs);
    if (await within(caughtUp, false, timing.catchUpMs)) gate.open = publication;
  }

  const gateOf = (chainId: number) => {
    const gate = chains.get(chainId) ?? { checkedAt: 0 };
    chains.set(chainId, gate);
    return gate;
  };

  return {
    async enter(chainId) {
      const gate = gateOf(chainId);
      const every = gate.open === undefined ? timing.closedRecheckMs : timing.recheckMs;
      if (Date.now() - gate.checkedAt >= every) {
        // One check at a time per chain: concurrent requests share it.
        gate.checking ??= check(chainId, gate).finally(() => {
          gate.checkedAt = Date.now();
          gate.checking = undefined;
        });
      }
      if (gate.checking) await gate.checking;
      if (gate.open === undefined) throw indexNotReady(chainId);
    },
    viewsMissing(chainId) {
      const gate = gateOf(chainId);
      gate.open = undefined;
      gate.checkedAt = 0;
    },
  };
}
