// host:confirm-transaction: polls for a broadcast transaction's receipt and records the outcome. Polling (not
// waiting for new blocks) because a node that mines on demand may publish the receipt after the send returned
// and then produce no further block. If another transaction took the nonce, the write is signed anew; if no
// receipt comes in time, the request is marked once (RECEIPT_TIMEOUT) and handed to reconciliation.
import type { Task } from "graphile-worker";
import { type Address, type Hex, TransactionReceiptNotFoundError } from "viem";
import { TERMINAL_STATES } from "../mutations/service.ts";
import { completeRequest } from "./complete-request.ts";
import { loadRequest, type TransactionTaskDeps, updateRequest } from "./deps.ts";
import { requeueWithNewNonce } from "./requeue.ts";

export function createConfirmTransactionTask(deps: TransactionTaskDeps): Task {
  const { db, chain, mutations, config, logger } = deps;

  async function receiptOf(hash: Hex) {
    try {
      return await chain.client.getTransactionReceipt({ hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error; // the node is unreachable: the job retries
    }
  }

  return async (payload, helpers) => {
    const { transactionId } = payload as { transactionId: string };
    const row = await loadRequest(db, transactionId);
    if (!row || TERMINAL_STATES.has(row.status) || !row.transactionHash) return;
    const hash = row.transactionHash as Hex;
    const deadline = Date.now() + config.RECEIPT_TIMEOUT_SECONDS * 1000;
    for (let delay = 25; Date.now() < deadline; delay = Math.min(delay * 2, 1_000)) {
      const receipt = await receiptOf(hash);
      if (receipt) return completeRequest(db, mutations, row, receipt);
      if (row.nonce !== null) {
        const mined = await chain.client.getTransactionCount({
          address: row.fromAddress as Address,
          blockTag: "latest",
        });
        if (mined > row.nonce && !(await receiptOf(hash))) {
          // Another transaction took our nonce: these bytes can never be mined, so this write has not happened.
          logger.warn("nonce taken by another transaction; signing the write anew", { transactionId, hash });
          return requeueWithNewNonce(db, helpers.addJob, row, "REQUEUED");
        }
      }
      await new Promise((r) => setTimeout(r, delay));
    }
    await updateRequest(db, row.id, {
      subStatus: "RECEIPT_TIMEOUT",
      errorMessage: "No receipt yet; handed to reconciliation.",
    });
    logger.warn("receipt timed out; reconciliation takes over", { transactionId, hash });
  };
}
