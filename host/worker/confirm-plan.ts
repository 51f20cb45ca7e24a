// The confirmation run's decisions, pure (the effects are in confirm-transaction.ts and the files it calls), so each
// is tested beside it.
import type { Config } from "../config.ts";

/** How long a used nonce must go without any receipt of ours before the write is signed anew. */
export const NONCE_TAKEN_GRACE_MS = 5_000;

export type Patience = Pick<Config, "STUCK_TRANSACTION_SECONDS" | "RECEIPT_TIMEOUT_SECONDS" | "FEE_BUMP_LIMIT">;

/** How long a broadcast write waits before anything is done about it having no receipt. */
export function patienceMs(config: Patience): number {
  return Math.min(config.STUCK_TRANSACTION_SECONDS, config.RECEIPT_TIMEOUT_SECONDS) * 1000;
}

/** The writes of a poll that can have a receipt: those whose nonce the signer's mined count has passed. */
export function minedOf<R extends { nonce: number | null }>(rows: readonly R[], minedCount: number): R[] {
  return rows.filter((row) => row.nonce !== null && row.nonce < minedCount);
}

/**
 * A write whose nonce is used but no version of ours has a receipt: another transaction took it. A node may count a
 * nonce before it serves the receipt, so it is first marked (`mark`) and signed anew (`resign`) only once that has
 * held for NONCE_TAKEN_GRACE_MS.
 */
export function nonceTakenAction(row: { subStatus: string | null }, ageMs: number): "mark" | "resign" | "wait" {
  if (row.subStatus !== "NONCE_TAKEN") return "mark";
  return ageMs >= NONCE_TAKEN_GRACE_MS ? "resign" : "wait";
}

/** Whether a write without a receipt has waited long enough that the node's pool must be asked about it. */
export function needsPoolLookup(ageMs: number, config: Patience): boolean {
  return ageMs > config.STUCK_TRANSACTION_SECONDS * 1000 || ageMs > config.RECEIPT_TIMEOUT_SECONDS * 1000;
}

/** What the node says of a write's current hash: in its pool, mined, or not known. */
export type PoolState = "pending" | "mined" | "absent";

/**
 * How long the signer's next write to be mined may be missing from the node (a reorg removed it, or the node
 * dropped it) before its bytes go out again (a node may not list a transaction the instant the send returned), and
 * how often the node is asked for it meanwhile (one read per signer, however long blocks take).
 */
export const MISSING_GRACE_MS = 2_000;

/**
 * What to do with a write that has no receipt yet. One the node still holds in its pool waits for a fee bump while
 * bumps remain (it is pending, not missing). The signer's next write to be mined (`next`: every later write waits
 * behind it) that the node no longer holds goes out again at once; any other one (dropped, or mined and then removed
 * by a reorg: anvil does not return those to its pool) once it is stuck, the same bytes, once; then it times out.
 */
export function unminedAction(
  row: { feeBumps: number; subStatus: string | null },
  ageMs: number,
  pool: PoolState | undefined,
  config: Patience,
  next = false,
): "wait" | "bump" | "rebroadcast" | "timeout" {
  const stuckAge = ageMs > config.STUCK_TRANSACTION_SECONDS * 1000;
  const timedOut = ageMs > config.RECEIPT_TIMEOUT_SECONDS * 1000;
  if (!stuckAge && !timedOut && !next) return "wait";
  if (pool === "pending" && row.feeBumps < config.FEE_BUMP_LIMIT) return stuckAge ? "bump" : "wait";
  if (pool === "absent" && next && !timedOut) return "rebroadcast";
  if (pool === "absent" && stuckAge && !timedOut && row.subStatus !== "REBROADCAST") return "rebroadcast";
  return timedOut ? "timeout" : "wait";
}

/** The next poll's delay: soon after progress, else doubling up to 250 ms (a poll is two small reads). */
export function nextPollDelay(delay: number, progressed: boolean): number {
  return progressed ? 25 : Math.min(delay * 2, 250);
}
