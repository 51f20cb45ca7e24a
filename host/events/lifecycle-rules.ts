// The lifecycle of a webhook event's fact, as pure rules: which state may follow which (each state is told once per
// fact and cycle, and delivered after the state it follows), which states a type's deliveries carry, which pending
// event an indexed observation follows, and which told-final blocks the chain has replaced.
import { isDeepStrictEqual } from "node:util";
import type { WebhookEventType } from "../plugin.ts";

export const LIFECYCLE_STATES = ["pending", "provisional", "final", "retracted", "recalled"] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/**
 * What may follow each state. `pending`: broadcast, not mined. `provisional`: indexed inside the reorg depth.
 * `final`: past the depth. `retracted`: a reorg inside the depth removed it (or the write ended unmined).
 * `recalled`: a reorg deeper than the depth replaced the block it was final in. A retracted or recalled fact that
 * comes back starts a new cycle at `provisional`.
 */
const NEXT: Record<LifecycleState, readonly LifecycleState[]> = {
  pending: ["provisional", "retracted"],
  provisional: ["final", "retracted"],
  final: ["recalled"],
  retracted: ["provisional"],
  recalled: ["provisional", "final"],
};

export const mayFollow = (previous: LifecycleState | null, next: LifecycleState): boolean =>
  previous === null ? next === "pending" || next === "provisional" || next === "final" : NEXT[previous].includes(next);

/** The states a type's deliveries may carry, in lifecycle order. */
export function statesOf(event: WebhookEventType): LifecycleState[] {
  if ((event.lifecycle ?? "final") === "final") return ["final", "recalled"];
  return [...(event.fromIndex?.pending ? (["pending"] as const) : []), "provisional", "final", "retracted", "recalled"];
}

/** Payloads compared without the transaction hash (a fee bump broadcasts the same write under another hash). */
const sameFact = (a: unknown, b: unknown) => {
  const strip = (p: unknown) => {
    if (typeof p !== "object" || p === null) return p;
    const { transactionHash: _, ...rest } = p as Record<string, unknown>;
    return rest;
  };
  return isDeepStrictEqual(strip(a), strip(b));
};

export interface PendingCandidate {
  id: string;
  requestId: string;
  payload: unknown;
}

/**
 * The pending event (of the observation's request and type, not followed yet) an observation follows: the one with
 * the same payload but for the hash, else the first; each taken once (`taken` collects them).
 */
export function matchPending(
  candidates: readonly PendingCandidate[],
  observed: { requestId: string | null; payload: unknown },
  taken: Set<string>,
): string | null {
  if (observed.requestId === null) return null;
  const open = candidates.filter((c) => c.requestId === observed.requestId && !taken.has(c.id));
  const match = open.find((c) => sameFact(c.payload, observed.payload)) ?? open[0];
  if (!match) return null;
  taken.add(match.id);
  return match.id;
}

export interface ToldBlock {
  blockNumber: bigint;
  blockHash: string;
}

/**
 * The told-final blocks the chain no longer has (another hash there, or no block at that height yet). A reorg
 * replaces a suffix of the chain, so when the newest told block stands, every older one does too.
 */
export function replacedBlocks(told: readonly ToldBlock[], chain: ReadonlyMap<bigint, string | null>): bigint[] {
  return told
    .filter((block) => {
      const now = chain.get(block.blockNumber);
      return now !== undefined && now?.toLowerCase() !== block.blockHash.toLowerCase();
    })
    .map((block) => block.blockNumber);
}
