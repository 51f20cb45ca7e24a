// Mined writes (completed or reverted) a reorg removed: back to CONFIRMING / REORGED, then the same signed bytes again,
// in nonce order; each signer's confirmation run follows (it records the outcome from the receipt, or signs the
// write anew once the nonce is taken).
import { confirmJobSpec } from "../mutations/service.ts";
import type { ChainTaskDeps } from "./deps.ts";
import { reorgedRequest } from "./finality.ts";
import { addKeyedJob } from "./keyed-jobs.ts";
import { broadcastAgain } from "./resend.ts";

export async function resendReorged(deps: ChainTaskDeps, ids: string[]): Promise<void> {
  const { db, chain, logger } = deps;
  const rows = await db
    .selectFrom("transactionRequests")
    .selectAll()
    .where("id", "in", ids)
    .orderBy("fromAddress")
    .orderBy("nonce")
    .execute();
  const signers = new Set<string>();
  for (const row of rows) {
    const back = { ...reorgedRequest(row), updatedAt: new Date() };
    const moved = await db
      .updateTable("transactionRequests")
      .set(back)
      .where("id", "=", row.id)
      .where("status", "=", row.status) // as read: never a request that moved on meanwhile
      .where("transactionHash", "=", row.transactionHash)
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) continue;
    signers.add(row.fromAddress);
    logger.warn("a reorg removed a mined write; broadcasting it again", {
      transactionId: row.id,
      status: row.status,
      removedHash: row.transactionHash,
      blockNumber: String(row.blockNumber),
    });
    // Its nonce taken meanwhile ("nonce too low"): the confirmation run signs it anew. Its fees now under the base
    // fee: signed anew at its nonce with bumped fees. Another refusal is logged; confirmation decides.
    await broadcastAgain(deps, { ...row, ...back });
  }
  for (const from of signers) await addKeyedJob(db, confirmJobSpec(chain.chainId, from));
}
