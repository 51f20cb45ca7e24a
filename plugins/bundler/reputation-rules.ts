// ERC-7562's reputation of the entities an operation names (paymaster, factory, aggregator): the standard's constants,
// the hourly decay of the opsSeen/opsIncluded counters, the status they give, and how many of an entity's operations
// the mempool may hold. Pure: the counters' storage is reputation.ts.

/** ERC-7562's constants (the bundler's MIN_INCLUSION_RATE_DENOMINATOR; a client's would be 100). */
export const MIN_INCLUSION_RATE_DENOMINATOR = 10;
export const THROTTLING_SLACK = 10;
export const BAN_SLACK = 50;
export const INCLUSION_RATE_FACTOR = 10;
export const SAME_UNSTAKED_ENTITY_MEMPOOL_COUNT = 10;
export const THROTTLED_ENTITY_MEMPOOL_COUNT = 4;
/** [SREP-030]: the most operations naming one throttled entity that one bundle carries. */
export const THROTTLED_ENTITY_BUNDLE_COUNT = 4;
/** [SREP-030]: the blocks an operation naming a throttled entity may stay in the mempool. */
export const THROTTLED_ENTITY_LIVE_BLOCKS = 10n;
/** [UREP-020]: the most an unstaked entity's inclusions add to its mempool allowance. */
const MAX_INCLUDED_ALLOWANCE = 10_000;
/** [SREP-050]: a staked entity whose operation fails its bundle's check; [UREP-030]: an unstaked one. */
export const STAKED_PENALTY_OPS_SEEN = 10_000;
export const UNSTAKED_PENALTY_OPS_SEEN = 1_000;

export const DECAY_INTERVAL_MS = 3_600_000;

export type ReputationStatus = "ok" | "throttled" | "banned";

export interface ReputationCounters {
  opsSeen: number;
  opsIncluded: number;
}

export interface DecayingCounters extends ReputationCounters {
  /** The start of the hour the counters were last decayed at: each whole hour since takes its step. */
  decayedAt: Date;
}

/** The counters at `now`: each whole hour since `decayedAt` takes `value * 23 // 24` of both. */
export function decayed(counters: DecayingCounters, now: Date): DecayingCounters {
  const hours = Math.max(0, Math.floor((now.getTime() - counters.decayedAt.getTime()) / DECAY_INTERVAL_MS));
  let { opsSeen, opsIncluded } = counters;
  // Once both are zero further steps change nothing: the loop is bounded however long the entity slept.
  for (let step = 0; step < hours && (opsSeen > 0 || opsIncluded > 0); step++) {
    opsSeen = Math.floor((opsSeen * 23) / 24);
    opsIncluded = Math.floor((opsIncluded * 23) / 24);
  }
  return { opsSeen, opsIncluded, decayedAt: new Date(counters.decayedAt.getTime() + hours * DECAY_INTERVAL_MS) };
}

/** ERC-7562's reputation calculation: maxSeen = opsSeen // MIN_INCLUSION_RATE_DENOMINATOR against opsIncluded. */
export function reputationStatus({ opsSeen, opsIncluded }: ReputationCounters): ReputationStatus {
  const maxSeen = Math.floor(opsSeen / MIN_INCLUSION_RATE_DENOMINATOR);
  if (maxSeen > opsIncluded + BAN_SLACK) return "banned";
  if (maxSeen > opsIncluded + THROTTLING_SLACK) return "throttled";
  return "ok";
}

/**
 * How many live operations naming the entity the mempool may hold: none when banned [SREP-020],
 * THROTTLED_ENTITY_MEMPOOL_COUNT when throttled [SREP-030], unlimited for a staked entity in good standing
 * [SREP-040], and [UREP-020]'s opsAllowed for an unstaked one.
 */
export function mempoolAllowance(counters: ReputationCounters, staked: boolean): number {
  const status = reputationStatus(counters);
  if (status === "banned") return 0;
  if (status === "throttled") return THROTTLED_ENTITY_MEMPOOL_COUNT;
  if (staked) return Number.POSITIVE_INFINITY;
  const inclusionRate = counters.opsSeen === 0 ? 0 : counters.opsIncluded / counters.opsSeen;
  return (
    SAME_UNSTAKED_ENTITY_MEMPOOL_COUNT +
    Math.floor(inclusionRate * INCLUSION_RATE_FACTOR) +
    Math.min(counters.opsIncluded, MAX_INCLUDED_ALLOWANCE)
  );
}

/** At `head`, the oldest acceptance head of an operation naming a throttled entity that may stay in the mempool:
 * one accepted before it has been live for more than THROTTLED_ENTITY_LIVE_BLOCKS. */
export function throttledLiveSince(head: bigint): bigint {
  return head - THROTTLED_ENTITY_LIVE_BLOCKS;
}

/** The counters after an operation naming the entity failed its bundle's check (the entity's fault, AA1x/AA3x). */
export function penalized(staked: boolean): ReputationCounters {
  return { opsSeen: staked ? STAKED_PENALTY_OPS_SEEN : UNSTAKED_PENALTY_OPS_SEEN, opsIncluded: 0 };
}
