// A write's signed bytes broadcast again (the node dropped them, or a reorg removed them). A node that refuses them
// because their fees are now under the block's base fee gets the write signed anew at the same nonce with bumped
// fees (a replacement: still at most one version is ever mined), instead of the write waiting for a timeout.
import type { Hex } from "viem";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { type ChainTaskDeps, isAlreadyKnown } from "./deps.ts";
import { bumpFees } from "./fee-bump.ts";

/** What a node's refusal of a broadcast means for the write. */
export type BroadcastRefusal =
  /** The node has it already, or mined it (or another transaction took its nonce: confirmation decides). */
  | "known"
  /** Its fees are too low now: sign it anew at the same nonce with higher fees. */
  | "underpriced"
  /** Anything else: left to confirmation's timeout and reconciliation. */
  | "refused";

/** geth, anvil, reth and erigon's words for fees under the base fee or a replacement needing more. */
const UNDERPRICED =
  /underpriced|less than (the )?block base ?fee|fee ?cap (is )?(too low|less than)|max fee per gas (is )?too low/i;

export function broadcastRefusal(error: unknown): BroadcastRefusal {
  if (isAlreadyKnown(error)) return "known";
  const text = `${(error as Error)?.message ?? error} ${(error as { details?: unknown })?.details ?? ""}`;
  return UNDERPRICED.test(text) ? "underpriced" : "refused";
}

/**
 * Broadcasts `row`'s stored bytes again. "sent" (or known), "replaced" when they were signed anew with bumped fees
 * (bumpFees stores and sends the new bytes), "refused" otherwise (logged).
 */
export async function broadcastAgain(
  deps: ChainTaskDeps,
  row: TransactionRequestRow,
): Promise<"sent" | "replaced" | "refused"> {
  try {
    await deps.chain.client.sendRawTransaction({ serializedTransaction: row.rawTransaction as Hex });
    return "sent";
  } catch (error) {
    const refusal = broadcastRefusal(error);
    if (refusal === "known") return "sent";
    if (refusal === "underpriced") {
      deps.logger.warn("the node refused the old fees; signing the write anew at its nonce", {
        transactionId: row.id,
        error: (error as Error).message,
      });
      await bumpFees(deps, [row]);
      return "replaced";
    }
    deps.logger.warn("the node refused the broadcast", { transactionId: row.id, error: (error as Error).message });
    return "refused";
  }
}
