// The send run's decisions, pure (the effects are in send-transaction.ts and the batch files it calls), so each is
// tested beside it.
import type { Hex } from "viem";

/** Writes one batch takes (the next batch continues where it stopped). */
export const BATCH = 200;

/** The gas limit of a write without its own: the estimate with a 20% margin. */
export function gasWithMargin(estimated: bigint): bigint {
  return (estimated * 12n) / 10n;
}

export interface NoncePlan {
  /** In the batch's order: each signable write with its gas limit and its nonce, consecutive from the first. */
  planned: { id: string; gas: bigint; nonce: number }[];
  /** The signer's next nonce after the batch. */
  next: number;
}

/**
 * Nonces for a batch, in its order, from `first`: a write is skipped (and takes no nonce) when it has no gas limit
 * (its estimate reverted) or is no longer signable (cancelled since the run read it).
 */
export function planNonces(
  rows: readonly { id: string }[],
  gas: ReadonlyMap<string, bigint>,
  signable: ReadonlySet<string>,
  first: number,
): NoncePlan {
  const planned: NoncePlan["planned"] = [];
  let nonce = first;
  for (const row of rows) {
    const limit = gas.get(row.id);
    if (limit === undefined || !signable.has(row.id)) continue;
    planned.push({ id: row.id, gas: limit, nonce });
    nonce += 1;
  }
  return { planned, next: nonce };
}

/**
 * What a batch broadcasts, in nonce order: bytes signed before a crash first (their nonces come first), as they are,
 * then the writes just signed; a fresh write not signed (reverted or cancelled) is not sent.
 */
export function outgoingOf(
  resumed: readonly { id: string; rawTransaction: string | null }[],
  fresh: readonly { id: string }[],
  signed: ReadonlyMap<string, Hex>,
): { id: string; raw: Hex }[] {
  return [
    ...resumed.map((row) => ({ id: row.id, raw: row.rawTransaction as Hex })),
    ...fresh.filter((row) => signed.has(row.id)).map((row) => ({ id: row.id, raw: signed.get(row.id)! })),
  ];
}

/**
 * Whether a batch's transactions may go out all at once. To a node that mines a block per transaction each must be
 * answered before the next: anvil's automine can take a JSON-RPC batch's entries out of order and then stalls on the
 * nonce gap for good (seen in the mint benchmark). Any other node holds a transaction ahead of a gap until it fills.
 */
export function broadcastAtOnce(count: number, minesPerTransaction: boolean): boolean {
  return count > 1 && !minesPerTransaction;
}

/**
 * After a batch: `continue` with the next while it read writes this run had not seen; else `stop`. Past the run's
 * budget it stops, and a full batch (more may be waiting) is handed over to a fresh run (`hand-over`).
 */
export function afterBatch(batch: {
  unseen: number;
  read: number;
  overBudget: boolean;
}): "continue" | "stop" | "hand-over" {
  if (batch.unseen === 0) return "stop";
  if (!batch.overBudget) return "continue";
  return batch.read === BATCH ? "hand-over" : "stop";
}
