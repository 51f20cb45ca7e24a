// host:confirm-transaction: one run per (chain, signer) polls the receipts of all its broadcast writes together
// (polling, not waiting for new blocks: a node that mines on demand may publish a receipt after the send returned
// and then produce no further block). A mined write is completed, whichever of its signed versions was mined. A
// write whose nonce another transaction took is signed anew (its bytes can never be mined). One still unmined
// in the node's pool after STUCK_TRANSACTION_SECONDS is replaced with higher fees (FEE_BUMP_LIMIT times at most). The
// signer's next write to be mined that the node no longer holds (a reorg removed it, or the node dropped it) goes out
// again at once with the ones behind it, not after the stuck timeout; one without a receipt after
// RECEIPT_TIMEOUT_SECONDS is marked RECEIPT_TIMEOUT once and left to reconciliation. A completed write is then watched
// until its block is final.
import type { Address, Hex } from "viem";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { confirmJobSpec, type SignerRun, SignerRunPayload } from "../mutations/service.ts";
import { completeRequest } from "./complete-request.ts";
import { defineTask, type TaskRun } from "./define-task.ts";
import { type ChainTaskDeps, perChainTask, type TransactionTaskDeps, updateRequest } from "./deps.ts";
import { bumpFees } from "./fee-bump.ts";
import { addKeyedJob } from "./keyed-jobs.ts";
import { receiptOf, receiptOfReplaced } from "./receipts.ts";
import { requeueWithNewNonce } from "./requeue.ts";
import { broadcastAgain } from "./resend.ts";
import { finalityJobSpec } from "./watch-finality.ts";

/** How long a used nonce must go without any receipt of ours before the write is signed anew. */
const NONCE_TAKEN_GRACE_MS = 5_000;

/**
 * How long the signer's next write to be mined may be missing from the node (a reorg removed it, or the node
 * dropped it) before its bytes go out again (a node may not list a transaction the instant the send returned), and
 * how often the node is asked for it meanwhile (one read per signer, however long blocks take).
 */
const MISSING_GRACE_MS = 2_000;

/** A run polls this long at most, then hands over to a fresh run (so a worker slot is not held forever). */
const RUN_BUDGET_MS = 60_000;

export function createConfirmTransactionTask(deps: TransactionTaskDeps) {
  return defineTask(SignerRunPayload, perChainTask(deps, confirmOnChain));
}

function confirmOnChain(deps: ChainTaskDeps): TaskRun<SignerRun> {
  const { db, chain, mutations, config, logger } = deps;
  const ageMs = (row: TransactionRequestRow) => Date.now() - new Date(row.updatedAt).getTime();

  /**
   * What to do with a write that has no receipt yet. One the node still holds in its pool waits for a fee bump
   * while bumps remain (it is pending, not missing). One the node no longer holds (dropped, or mined and then removed
   * by a reorg: anvil does not return those to its pool) is broadcast again once, the same bytes; then it times out.
   */
  async function unminedAction(
    row: TransactionRequestRow,
    mined: number,
  ): Promise<"wait" | "bump" | "rebroadcast" | "timeout"> {
    const age = ageMs(row);
    const stuckAge = age > config.STUCK_TRANSACTION_SECONDS * 1000;
    const timedOut = age > config.RECEIPT_TIMEOUT_SECONDS * 1000;
    // The next nonce to be mined: when the node lost it, every later write of the signer waits behind it.
    const next = row.nonce === mined && !timedOut && Date.now() - (lookedAt.get(row.id) ?? 0) > MISSING_GRACE_MS;
    if (!stuckAge && !timedOut && !next) return "wait";
    if (next) lookedAt.set(row.id, Date.now());
    const held = await isHeld(row);
    if (held === "pending" && row.feeBumps < config.FEE_BUMP_LIMIT) return stuckAge ? "bump" : "wait";
    if (held === "missing" && next) return "rebroadcast";
    if (held === "missing" && stuckAge && !timedOut && row.subStatus !== "REBROADCAST") return "rebroadcast";
    return timedOut ? "timeout" : "wait";
  }

  /** Whether the node has the write's current bytes: pending in its pool, mined, or not at all. */
  async function isHeld(row: TransactionRequestRow): Promise<"pending" | "mined" | "missing"> {
    const held = await chain.client.getTransaction({ hash: row.transactionHash as Hex }).catch(() => undefined);
    if (!held) return "missing";
    return held.blockNumber === null ? "pending" : "mined";
  }

  /** When this run last looked for the signer's next write in the node (at most every MISSING_GRACE_MS). */
  const lookedAt = new Map<string, number>();

  /** The same signed bytes again (same nonce: at most one of them is ever mined), or new ones with higher fees. */
  async function rebroadcast(row: TransactionRequestRow) {
    lookedAt.set(row.id, Date.now());
    if ((await broadcastAgain(deps, row)) !== "sent") return;
    await updateRequest(db, row.id, { subStatus: "REBROADCAST" }, "CONFIRMING");
    logger.warn("the node no longer held the transaction; broadcast it again", { transactionId: row.id });
  }

  /** The signer's writes waiting for a receipt. */
  const waitingWrites = (chainId: number, fromAddress: string) =>
    db
      .selectFrom("transactionRequests")
      .where("status", "=", "CONFIRMING")
      .where("subStatus", "!=", "RECEIPT_TIMEOUT")
      .where("chainId", "=", chainId)
      .where("fromAddress", "=", fromAddress);

  /** The signer's writes after `nonce` that the node lost too (a reorg removes a run of them), again in nonce order. */
  async function rebroadcastMissingAfter(row: TransactionRequestRow) {
    const later = await waitingWrites(row.chainId, row.fromAddress)
      .selectAll()
      .where("nonce", ">", row.nonce as number)
      .orderBy("nonce")
      .limit(1_000)
      .execute();
    for (const row of later) if ((await isHeld(row)) === "missing") await rebroadcast(row);
  }

  return async (payload) => {
    const { chainId, fromAddress } = payload;
    const stopAt = Date.now() + RUN_BUDGET_MS;
    const patienceMs = Math.min(config.STUCK_TRANSACTION_SECONDS, config.RECEIPT_TIMEOUT_SECONDS) * 1000;
    const waiting = waitingWrites(chainId, fromAddress);
    for (let delay = 25; ; ) {
      // The signer's mined nonce count says which writes can have a receipt: only those are looked up, plus the
      // unmined ones waiting long enough to need a fee bump or a timeout. Nothing else is read on a poll.
      const mined = await chain.client.getTransactionCount({ address: fromAddress as Address, blockTag: "latest" });
      const due = await waiting
        .selectAll()
        .where((eb) =>
          eb.or([
            eb("nonce", "<", mined),
            eb("updatedAt", "<", new Date(Date.now() - patienceMs)),
            eb.and([eb("nonce", "=", mined), eb("updatedAt", "<", new Date(Date.now() - MISSING_GRACE_MS))]),
          ]),
        )
        .orderBy("nonce")
        .limit(1_000)
        .execute();
      if (due.length === 0 && !(await waiting.select("id").limit(1).executeTakeFirst())) return;
      const minedRows = due.filter((row) => row.nonce !== null && row.nonce < mined);
      const receipts = await Promise.all(
        minedRows.map(
          async (row) => (await receiptOf(chain, row.transactionHash as Hex)) ?? (await receiptOfReplaced(chain, row)),
        ),
      );
      let progressed = minedRows.some((_, i) => receipts[i]);
      await Promise.all(
        minedRows.map(async (row, i) => {
          const receipt = receipts[i];
          if (receipt) {
            await completeRequest(db, mutations, row, receipt);
          } else if (row.subStatus !== "NONCE_TAKEN") {
            // The nonce is used but no version of ours has a receipt: another transaction took it. A node may count
            // a nonce before it serves the receipt, so this must hold for a while before the write is signed anew.
            await updateRequest(db, row.id, { subStatus: "NONCE_TAKEN" });
          } else if (ageMs(row) >= NONCE_TAKEN_GRACE_MS) {
            logger.warn("nonce taken by another transaction; signing the write anew", { transactionId: row.id });
            await requeueWithNewNonce(db, row, "REQUEUED");
          }
        }),
      );
      // Completed writes are watched until their blocks are final (watch-finality.ts).
      if (progressed) await addKeyedJob(db, finalityJobSpec(chainId));
      const stuck = [];
      for (const row of due.filter((r) => !minedRows.includes(r))) {
        const action = await unminedAction(row, mined);
        if (action === "bump") stuck.push(row);
        else if (action === "rebroadcast") {
          await rebroadcast(row);
          if (row.nonce === mined) await rebroadcastMissingAfter(row);
          progressed = true;
        } else if (action === "timeout") {
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
      if (Date.now() > stopAt) {
        await addKeyedJob(db, confirmJobSpec(chainId, fromAddress));
        return;
      }
      delay = progressed ? 25 : Math.min(delay * 2, 250); // a poll is two small reads: no need to back off far
      await new Promise((r) => setTimeout(r, delay));
    }
  };
}
