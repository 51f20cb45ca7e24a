// host:confirm-transaction: waits for a broadcast transaction's receipt and records the outcome. When the receipt
// does not come in time the request is marked once (RECEIPT_TIMEOUT) and handed to reconciliation.
import type { Task } from "graphile-worker";
import { type Hex, WaitForTransactionReceiptTimeoutError } from "viem";
import { TERMINAL_STATES } from "../mutations/service.ts";
import { completeRequest } from "./complete-request.ts";
import { loadRequest, type TransactionTaskDeps, updateRequest } from "./deps.ts";
import { requeueWithNewNonce } from "./requeue.ts";

export function createConfirmTransactionTask(deps: TransactionTaskDeps): Task {
  const { db, chain, mutations, config, logger } = deps;
  return async (payload, helpers) => {
    const { transactionId } = payload as { transactionId: string };
    const row = await loadRequest(db, transactionId);
    if (!row || TERMINAL_STATES.has(row.status) || !row.transactionHash) return;
    try {
      let replacedBy: "replaced" | "cancelled" | "repriced" | undefined;
      const receipt = await chain.client.waitForTransactionReceipt({
        hash: row.transactionHash as Hex,
        timeout: config.RECEIPT_TIMEOUT_SECONDS * 1000,
        pollingInterval: 100,
        onReplaced: (replacement) => {
          replacedBy = replacement.reason;
        },
      });
      if (replacedBy === "replaced" || replacedBy === "cancelled") {
        // Another transaction took our nonce: that receipt is not this write's, which has not happened yet.
        logger.warn("nonce taken by another transaction; signing the write anew", {
          transactionId,
          by: receipt.transactionHash,
        });
        await requeueWithNewNonce(db, helpers.addJob, row, "REQUEUED");
        return;
      }
      await completeRequest(db, mutations, row, receipt); // our write, possibly repriced
    } catch (error) {
      if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error; // the node is unreachable: retry
      await updateRequest(db, row.id, {
        subStatus: "RECEIPT_TIMEOUT",
        errorMessage: "No receipt yet; handed to reconciliation.",
      });
      logger.warn("receipt timed out; reconciliation takes over", { transactionId, hash: row.transactionHash });
    }
  };
}
