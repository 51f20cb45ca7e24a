// A write the node no longer holds goes out again: the same signed bytes (same nonce: at most one of them is ever
// mined); a refusal leaves it to time out.
import type { Hex } from "viem";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import type { PoolState } from "./confirm-plan.ts";
import { type ChainTaskDeps, isAlreadyKnown, updateRequest } from "./deps.ts";

export async function rebroadcast({ db, chain, logger }: ChainTaskDeps, row: TransactionRequestRow): Promise<void> {
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: row.rawTransaction as Hex });
  } catch (error) {
    if (!isAlreadyKnown(error)) {
      logger.warn("the node refused the rebroadcast", { transactionId: row.id, error: (error as Error).message });
      return;
    }
  }
  await updateRequest(db, row.id, { subStatus: "REBROADCAST" }, "CONFIRMING");
  logger.warn("the node no longer held the transaction; broadcast it again", { transactionId: row.id });
}

/** What the node says of the write's current hash (a failed lookup counts as not known). */
export async function poolStateOf(chain: ChainTaskDeps["chain"], hash: string): Promise<PoolState> {
  const held = await chain.client.getTransaction({ hash: hash as Hex }).catch(() => undefined);
  if (!held) return "absent";
  return held.blockNumber === null ? "pending" : "mined";
}
