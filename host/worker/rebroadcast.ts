// A write the node no longer holds goes out again: the same signed bytes (same nonce: at most one of them is ever
// mined), or new ones with bumped fees when the node refuses the old fees (resend.ts); another refusal leaves it to
// time out.
import type { Hex } from "viem";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import type { PoolState } from "./confirm-plan.ts";
import { type ChainTaskDeps, updateRequest } from "./deps.ts";
import { broadcastAgain } from "./resend.ts";

export async function rebroadcast(deps: ChainTaskDeps, row: TransactionRequestRow): Promise<void> {
  if ((await broadcastAgain(deps, row)) !== "sent") return;
  await updateRequest(deps.db, row.id, { subStatus: "REBROADCAST" }, "CONFIRMING");
  deps.logger.warn("the node no longer held the transaction; broadcast it again", { transactionId: row.id });
}

/** What the node says of the write's current hash (a failed lookup counts as not known). */
export async function poolStateOf(chain: ChainTaskDeps["chain"], hash: string): Promise<PoolState> {
  const held = await chain.client.getTransaction({ hash: hash as Hex }).catch(() => undefined);
  if (!held) return "absent";
  return held.blockNumber === null ? "pending" : "mined";
}
