// Sends a write again from scratch (a new signature and nonce). Only once its previous bytes can no longer be
// mined (their nonce is taken), so the write still happens at most once.
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { sendJobSpec } from "../mutations/service.ts";
import { addKeyedJob } from "./keyed-jobs.ts";

export async function requeueWithNewNonce(db: PlatformDb, row: TransactionRequestRow, reason: string) {
  const requeued = await db
    .updateTable("transactionRequests")
    .set({
      status: "QUEUED",
      subStatus: reason,
      rawTransaction: null,
      transactionHash: null,
      nonce: null,
      attempts: row.attempts + 1,
      updatedAt: new Date(),
    })
    .where("id", "=", row.id)
    // Only as it was read: never clears bytes signed (or a receipt recorded) since.
    .where("status", "=", row.status)
    .where("transactionHash", "=", row.transactionHash)
    .executeTakeFirst();
  if (requeued.numUpdatedRows === 0n) return;
  await addKeyedJob(db, sendJobSpec(row.chainId, row.fromAddress));
}
