// Broadcasts a batch's signed transactions in nonce order: all at once to a node that holds a transaction ahead of a
// nonce gap (one request: the client batches concurrent calls), else each answered before the next (send-plan.ts).
import type { Hex } from "viem";
import { minesPerTransaction } from "../chain/mines-per-transaction.ts";
import { type ChainTaskDeps, isAlreadyKnown } from "./deps.ts";
import { broadcastAtOnce } from "./send-plan.ts";

export async function broadcastBatch(chain: ChainTaskDeps["chain"], raws: Hex[]): Promise<void> {
  const send = async (serializedTransaction: Hex) => {
    try {
      await chain.client.sendRawTransaction({ serializedTransaction });
    } catch (error) {
      if (!isAlreadyKnown(error)) throw error; // the run fails and is retried with backoff, with the same bytes
    }
  };
  if (raws.length > 1 && broadcastAtOnce(raws.length, await minesPerTransaction(chain.client))) {
    await Promise.all(raws.map(send));
    return;
  }
  for (const raw of raws) await send(raw);
}
