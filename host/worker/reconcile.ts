// host:reconcile (every minute, once across the cluster): requests whose receipt timed out. A receipt that
// appeared (for any signed version of the write) completes them; after RECONCILE_AFTER_SECONDS without one, a write is requeued while the retry budget
// lasts (the same signed bytes again while their nonce is unused; signed anew only once that nonce was consumed
// by another transaction, so the old bytes can never be mined too), else it goes to DEAD_LETTER. It also restarts the
// runs of signers whose writes wait without one (stranded-runs.ts), and a chain's finality watch (watch-finality.ts).
import type { Address } from "viem";
import { confirmJobSpec } from "../mutations/service.ts";
import { completeRequest } from "./complete-request.ts";
import { defineTask, NoPayload } from "./define-task.ts";
import { type ChainTaskDeps, type TransactionTaskDeps, updateRequest } from "./deps.ts";
import { addKeyedJob } from "./keyed-jobs.ts";
import { receiptOfAny } from "./receipts.ts";
import { requeueWithNewNonce } from "./requeue.ts";
import { broadcastAgain } from "./resend.ts";
import { revertCause } from "./revert-cause.ts";
import { restartStrandedRuns } from "./stranded-runs.ts";
import { ensureFinalityWatch } from "./watch-finality.ts";

/** The cluster-wide reconciliation (one run a minute): every served chain in turn. */
export function createReconcileTask(deps: TransactionTaskDeps) {
  return defineTask(NoPayload, async () => {
    for (const chain of deps.chains.all()) await reconcileChain({ ...deps, chain });
  });
}

async function reconcileChain(deps: ChainTaskDeps) {
  const { db, chain, mutations, config, logger } = deps;
  const restarted = await restartStrandedRuns(db, chain.chainId);
  if (restarted > 0) logger.warn("restarted the runs of signers with waiting writes", { runs: restarted });
  await ensureFinalityWatch(deps, chain.chainId); // the chain's finality watch, should its job have been lost
  const timedOut = await db
    .selectFrom("transactionRequests")
    .selectAll()
    .where("status", "=", "CONFIRMING")
    .where("subStatus", "=", "RECEIPT_TIMEOUT")
    .where("chainId", "=", chain.chainId)
    .orderBy("updatedAt")
    .limit(500)
    .execute();
  for (const row of timedOut) {
    const log = logger.child({ transactionId: row.id });
    const receipt = await receiptOfAny(chain, row).catch(() => undefined);
    if (receipt) {
      await completeRequest(db, mutations, row, receipt, await revertCause(chain, receipt));
      log.info("reconciled from a late receipt", { hash: row.transactionHash });
      continue;
    }
    if (Date.now() - new Date(row.updatedAt).getTime() < config.RECONCILE_AFTER_SECONDS * 1000) continue;
    if (row.attempts >= config.RECONCILE_RETRY_BUDGET) {
      await updateRequest(db, row.id, {
        status: "DEAD_LETTER",
        subStatus: "RECEIPT_MISSING",
        errorMessage: "No receipt after every retry; needs manual intervention.",
      });
      log.error("dead-lettered: no receipt after the retry budget", { hash: row.transactionHash });
      continue;
    }
    const mined = await chain.client.getTransactionCount({ address: row.fromAddress as Address, blockTag: "latest" });
    if (row.nonce !== null && mined > row.nonce) {
      // Another transaction took the nonce: these bytes can never be mined. Sign the write anew.
      await requeueWithNewNonce(db, row, "REQUEUED");
      log.warn("requeued with a new nonce", { previousHash: row.transactionHash });
    } else {
      // The node dropped it: the same bytes again (same nonce, so at most one of them is ever mined), or, when their
      // fees are now under the base fee, the write signed anew at that nonce with bumped fees.
      const sent = await broadcastAgain(deps, row);
      // Refused otherwise (or the node did not answer): tried again on the next run, the other writes meanwhile.
      if (sent === "refused") continue;
      const attempts = row.attempts + 1; // a re-signed write is FEE_BUMPED already (fee-bump.ts)
      await updateRequest(
        db,
        row.id,
        sent === "sent" ? { subStatus: "REBROADCAST", errorMessage: null, attempts } : { attempts },
      );
      await addKeyedJob(db, confirmJobSpec(row.chainId, row.fromAddress));
      log.warn(sent === "sent" ? "rebroadcast after a missing receipt" : "re-signed with bumped fees", {
        hash: row.transactionHash,
      });
    }
  }
}
