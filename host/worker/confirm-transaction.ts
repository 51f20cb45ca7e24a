// host:confirm-transaction: one run per (chain, signer) polls the receipts of all its broadcast writes together
// (polling, not waiting for new blocks: a node that mines on demand may publish a receipt after the send returned
// and then produce no further block). A mined write is completed; a write whose nonce another transaction took
// is signed anew (its bytes can never be mined); one without a receipt after RECEIPT_TIMEOUT_SECONDS is marked
// RECEIPT_TIMEOUT once and left to reconciliation.
import type { Task } from "graphile-worker";
import { type Address, type Hex, TransactionReceiptNotFoundError } from "viem";
import { confirmJobSpec } from "../mutations/service.ts";
import { completeRequest } from "./complete-request.ts";
import { type TransactionTaskDeps, updateRequest } from "./deps.ts";
import { requeueWithNewNonce } from "./requeue.ts";

/** A run polls this long at most, then hands over to a fresh run (so a worker slot is not held forever). */
const RUN_BUDGET_MS = 60_000;

export function createConfirmTransactionTask(deps: TransactionTaskDeps): Task {
  const { db, chain, mutations, config, logger } = deps;

  async function receiptOf(hash: Hex) {
    try {
      return await chain.client.getTransactionReceipt({ hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error; // the node is unreachable: the run retries
    }
  }

  return async (payload, helpers) => {
    const { chainId, fromAddress } = payload as { chainId: number; fromAddress: string };
    const stopAt = Date.now() + RUN_BUDGET_MS;
    for (let delay = 25; ; ) {
      const pending = await db
        .selectFrom("transactionRequests")
        .selectAll()
        .where("status", "=", "CONFIRMING")
        .where("subStatus", "!=", "RECEIPT_TIMEOUT")
        .where("chainId", "=", chainId)
        .where("fromAddress", "=", fromAddress)
        .orderBy("nonce")
        .limit(1_000)
        .execute();
      if (pending.length === 0) return;
      const receipts = await Promise.all(pending.map((row) => receiptOf(row.transactionHash as Hex)));
      let progressed = false;
      const missing = [];
      for (const [i, row] of pending.entries()) {
        const receipt = receipts[i];
        if (receipt) {
          await completeRequest(db, mutations, row, receipt);
          progressed = true;
        } else missing.push(row);
      }
      if (missing.length > 0) {
        const mined = await chain.client.getTransactionCount({ address: fromAddress as Address, blockTag: "latest" });
        for (const row of missing) {
          if (row.nonce !== null && mined > row.nonce && !(await receiptOf(row.transactionHash as Hex))) {
            // Another transaction took this nonce: these bytes can never be mined, so the write has not happened.
            logger.warn("nonce taken by another transaction; signing the write anew", { transactionId: row.id });
            await requeueWithNewNonce(db, helpers.addJob, row, "REQUEUED");
            progressed = true;
          } else if (Date.now() - new Date(row.updatedAt).getTime() > config.RECEIPT_TIMEOUT_SECONDS * 1000) {
            await updateRequest(db, row.id, {
              subStatus: "RECEIPT_TIMEOUT",
              errorMessage: "No receipt yet; handed to reconciliation.",
            });
            logger.warn("receipt timed out; reconciliation takes over", {
              transactionId: row.id,
              hash: row.transactionHash,
            });
          }
        }
      }
      if (Date.now() > stopAt) {
        const next = confirmJobSpec(chainId, fromAddress);
        await helpers.addJob(next.task, next.payload, { jobKey: next.jobKey, maxAttempts: 25 });
        return;
      }
      delay = progressed ? 25 : Math.min(delay * 2, 1_000);
      await new Promise((r) => setTimeout(r, delay));
    }
  };
}
