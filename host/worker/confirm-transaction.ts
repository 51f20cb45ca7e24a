// host:confirm-transaction: one run per (chain, signer) polls the receipts of all its broadcast writes together
// (polling, not waiting for new blocks: a node that mines on demand may publish a receipt after the send returned
// and then produce no further block). A mined write is completed, whichever of its signed versions was mined. A
// write whose nonce another transaction took is signed anew (its bytes can never be mined). One still unmined
// in the node's pool after STUCK_TRANSACTION_SECONDS is replaced with higher fees (FEE_BUMP_LIMIT times at most);
// one without a receipt after RECEIPT_TIMEOUT_SECONDS is marked RECEIPT_TIMEOUT once and left to reconciliation.
import type { Task } from "graphile-worker";
import type { Address, Hex } from "viem";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { confirmJobSpec } from "../mutations/service.ts";
import { completeRequest } from "./complete-request.ts";
import { type TransactionTaskDeps, updateRequest } from "./deps.ts";
import { bumpFees } from "./fee-bump.ts";
import { receiptOf, receiptOfReplaced } from "./receipts.ts";
import { requeueWithNewNonce } from "./requeue.ts";

/** A run polls this long at most, then hands over to a fresh run (so a worker slot is not held forever). */
const RUN_BUDGET_MS = 60_000;

export function createConfirmTransactionTask(deps: TransactionTaskDeps): Task {
  const { db, chain, mutations, config, logger } = deps;
  const ageMs = (row: TransactionRequestRow) => Date.now() - new Date(row.updatedAt).getTime();

  /**
   * What to do with a write that has no receipt yet. One the node still holds in its pool waits for a fee bump
   * while bumps remain (it is pending, not missing); one the node no longer holds (dropped) times out.
   */
  async function unminedAction(row: TransactionRequestRow): Promise<"wait" | "bump" | "timeout"> {
    const age = ageMs(row);
    const stuckAge = age > config.STUCK_TRANSACTION_SECONDS * 1000;
    const timedOut = age > config.RECEIPT_TIMEOUT_SECONDS * 1000;
    if (!stuckAge && !timedOut) return "wait";
    if (row.feeBumps < config.FEE_BUMP_LIMIT) {
      const held = await chain.client.getTransaction({ hash: row.transactionHash as Hex }).catch(() => undefined);
      if (held && held.blockNumber === null) return stuckAge ? "bump" : "wait";
    }
    return timedOut ? "timeout" : "wait";
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
      const receipts = await Promise.all(pending.map((row) => receiptOf(chain, row.transactionHash as Hex)));
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
        const stuck = [];
        for (const row of missing) {
          if (row.nonce !== null && mined > row.nonce) {
            // The nonce is used: by our current bytes (receipt just published), an earlier version, or someone else.
            const receipt =
              (await receiptOf(chain, row.transactionHash as Hex)) ?? (await receiptOfReplaced(chain, row));
            if (receipt) await completeRequest(db, mutations, row, receipt);
            else {
              // Another transaction took this nonce: these bytes can never be mined, so the write has not happened.
              logger.warn("nonce taken by another transaction; signing the write anew", { transactionId: row.id });
              await requeueWithNewNonce(db, helpers.addJob, row, "REQUEUED");
            }
            progressed = true;
            continue;
          }
          const action = await unminedAction(row);
          if (action === "bump") stuck.push(row);
          else if (action === "timeout") {
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
        if (stuck.length > 0) {
          await bumpFees(deps, stuck);
          progressed = true;
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
