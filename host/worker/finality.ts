// When a COMPLETED write is final, and what a reorg that removed it does to its request: the pure part of the
// finality watcher (watch-finality.ts).
import { type Hex, keccak256 } from "viem";
import type { ServedChains } from "../chain/served-chains.ts";
import { type Config, reorgDepth } from "../config.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";

/** The sub-status of a request whose mined transaction a reorg removed, while it is confirmed again. */
export const REORGED = "REORGED";

/**
 * The outcomes of a mined write, watched until its block is final: a write that reverted on chain used its nonce too.
 * Should a reorg remove it, its bytes must go out again like a completed one's, or the signer's later writes would
 * wait behind its nonce for good (and it may now succeed: the outcome is the chain's, once final).
 */
export const MINED_STATUSES = ["COMPLETED", "FAILED"] as const;
export type MinedStatus = (typeof MINED_STATUSES)[number];

/** A chain's finality depth: its setting's, the one the index lifecycle settles with (scripts/platform.ts). */
export function finalityDepth(
  config: Pick<Config, "chains" | "WEBHOOK_REORG_DEPTH">,
  chains: Pick<ServedChains, "ids">,
  chainId: number,
): number {
  return config.chains[chains.ids.indexOf(chainId)]?.finalityDepth ?? reorgDepth(config.WEBHOOK_REORG_DEPTH, chainId);
}

/** How often a chain's unfinal writes are checked while its head moves: a removed write is noticed within about this. */
export const WATCH_INTERVAL_MS = 1_000;
/** The longest wait between checks while the head stays the same block (an idle chain). */
export const IDLE_WATCH_MAX_MS = 8_000;

/**
 * The wait before a chain's next watch run. Nothing can become final or be removed while the head stays the same
 * block (a reorg replaces the head too): after `quietRuns` runs that found it so, twice as long each time.
 */
export function watchDelayMs(quietRuns: number): number {
  return Math.min(WATCH_INTERVAL_MS * 2 ** quietRuns, IDLE_WATCH_MAX_MS);
}

/** Where the chain has the write's transaction now. */
export type Inclusion =
  /** Still in the block its request recorded. */
  | { in: "recorded-block" }
  /** In another block (a reorg re-included it), with the outcome of that execution. */
  | { in: "other-block"; blockNumber: bigint; transactionHash: string; success: boolean }
  /** Nowhere: no receipt for any signed version of it. */
  | { in: "none" };

export type FinalityDecision =
  | { action: "final" }
  | { action: "watch" }
  /** Same transaction, same outcome, another block: the request keeps its status and follows it. */
  | { action: "moved"; blockNumber: bigint; transactionHash: string }
  /** Gone (or re-executed with another outcome): back to CONFIRMING, confirmed again. */
  | { action: "reorged" };

/**
 * `recorded`: the write's block and status as its request has them. `depth`: the chain's finality depth, as the index
 * lifecycle settles observations (host/events/index-lifecycle.ts): a block is final once the head is `depth` past it.
 */
export function finalityOf(
  recorded: { blockNumber: bigint; status: MinedStatus },
  inclusion: Inclusion,
  head: bigint,
  depth: number,
): FinalityDecision {
  if (inclusion.in === "none") return { action: "reorged" };
  if (inclusion.in === "other-block") {
    const { blockNumber, transactionHash } = inclusion;
    const sameOutcome = inclusion.success === (recorded.status === "COMPLETED");
    return sameOutcome ? { action: "moved", blockNumber, transactionHash } : { action: "reorged" };
  }
  return head - recorded.blockNumber >= BigInt(depth) ? { action: "final" } : { action: "watch" };
}

/**
 * The request sent back to be confirmed again: CONFIRMING / REORGED, its block and a revert's error forgotten. Its
 * current signed bytes go out again, so the hash followed is theirs; the hash that was mined is kept among the
 * replaced ones (either version's receipt completes the request, and they share a nonce, so only one is ever mined).
 */
export function reorgedRequest(
  row: Pick<TransactionRequestRow, "rawTransaction" | "transactionHash" | "replacedHashes" | "reorgs">,
) {
  const hash = keccak256(row.rawTransaction as Hex);
  const replaced = row.replacedHashes ?? [];
  const mined = row.transactionHash;
  return {
    status: "CONFIRMING",
    subStatus: REORGED,
    transactionHash: hash,
    replacedHashes: mined && mined !== hash && !replaced.includes(mined) ? [...replaced, mined] : replaced,
    blockNumber: null,
    errorMessage: null,
    contractError: null,
    reorgs: row.reorgs + 1,
  };
}
