// A write waits on its signer's run. Should that run be lost (a crash between a commit and the job it needed), the
// write would wait for ever: reconciliation adds the run again for every signer with a write untouched this long.
import type { PlatformDb } from "../db/database.ts";
import { confirmJobSpec, sendJobSpec } from "../mutations/service.ts";
import { addKeyedJob } from "./keyed-jobs.ts";

const STRANDED_AFTER_MS = 60_000;

export async function restartStrandedRuns(db: PlatformDb, chainId: number): Promise<number> {
  const signers = await db
    .selectFrom("transactionRequests")
    .select(["status", "fromAddress"])
    .distinct()
    .where("chainId", "=", chainId)
    .where((eb) =>
      eb.or([
        eb("status", "=", "QUEUED"),
        eb.and([eb("status", "=", "CONFIRMING"), eb("subStatus", "is distinct from", "RECEIPT_TIMEOUT")]),
      ]),
    )
    .where("updatedAt", "<", new Date(Date.now() - STRANDED_AFTER_MS))
    .execute();
  for (const { status, fromAddress } of signers) {
    // Adding a signer's run is harmless when one exists: it folds into the pending one, or follows the running one.
    await addKeyedJob(db, (status === "QUEUED" ? sendJobSpec : confirmJobSpec)(chainId, fromAddress));
  }
  return signers.length;
}
