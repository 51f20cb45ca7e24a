// host:confirm-transaction: one run per (chain, signer) polls the receipts of all its broadcast writes together
// (polling, not waiting for new blocks: a node that mines on demand may publish a receipt after the send returned
// and then produce no further block). A mined write is completed, whichever of its signed versions was mined. A
// write whose nonce another transaction took is signed anew (its bytes can never be mined). One still unmined
// in the node's pool after STUCK_TRANSACTION_SECONDS is replaced with higher fees (FEE_BUMP_LIMIT times at most). The
// signer's next write to be mined that the node no longer holds (a reorg removed it, or the node dropped it) goes out
// again at once with the ones behind it, not after the stuck timeout; one without a receipt after
// RECEIPT_TIMEOUT_SECONDS is marked RECEIPT_TIMEOUT once and left to reconciliation. A completed write is then watched
// until its block is final.
// Receipts come from the chain's block watcher (one eth_getBlockReceipts a block for all runs of the process), the
// node being asked per hash only for a write the watcher does not hold. The decisions are in confirm-plan.ts.
import type { Address } from "viem";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { confirmJobSpec, type SignerRun, SignerRunPayload } from "../mutations/service.ts";
import { completeRequest } from "./complete-request.ts";
import {
  MISSING_GRACE_MS,
  minedOf,
  needsPoolLookup,
  nextPollDelay,
  nonceTakenAction,
  patienceMs,
  unminedAction,
} from "./confirm-plan.ts";
import { defineTask, type TaskRun } from "./define-task.ts";
import { type ChainTaskDeps, perChainTask, type TransactionTaskDeps, updateRequest } from "./deps.ts";
import { bumpFees } from "./fee-bump.ts";
import { addKeyedJob } from "./keyed-jobs.ts";
import { poolStateOf, rebroadcast } from "./rebroadcast.ts";
import { receiptsOfMined } from "./receipts.ts";
import { requeueWithNewNonce } from "./requeue.ts";
import { revertCause } from "./revert-cause.ts";
import { finalityJobSpec } from "./watch-finality.ts";

/** A run polls this long at most, then hands over to a fresh run (so a worker slot is not held forever). */
const RUN_BUDGET_MS = 60_000;

const ageMs = (row: TransactionRequestRow) => Date.now() - new Date(row.updatedAt).getTime();

export function createConfirmTransactionTask(deps: TransactionTaskDeps) {
  return defineTask(SignerRunPayload, perChainTask(deps, confirmOnChain));
}

/** Completes the mined writes that have a receipt and handles those whose nonce another took; whether any completed. */
async function settleMined(deps: ChainTaskDeps, rows: TransactionRequestRow[]): Promise<boolean> {
  const { db, chain, mutations, logger } = deps;
  // From the chain's block watcher (host/chain/block-receipts.ts), shared by every signer's run: one read a block.
  const receipts = await receiptsOfMined(chain, rows);
  await Promise.all(
    rows.map(async (row, i) => {
      const receipt = receipts[i];
      if (receipt) return completeRequest(db, mutations, row, receipt, await revertCause(chain, receipt));
      const action = nonceTakenAction(row, ageMs(row));
      if (action === "mark") await updateRequest(db, row.id, { subStatus: "NONCE_TAKEN" });
      else if (action === "resign") {
        logger.warn("nonce taken by another transaction; signing the write anew", { transactionId: row.id });
        await requeueWithNewNonce(db, row, "REQUEUED");
      }
    }),
  );
  return receipts.some(Boolean);
}

/** The signer's writes waiting for a receipt. */
const waitingWrites = ({ db }: ChainTaskDeps, chainId: number, fromAddress: string) =>
  db
    .selectFrom("transactionRequests")
    .where("status", "=", "CONFIRMING")
    .where("subStatus", "!=", "RECEIPT_TIMEOUT")
    .where("chainId", "=", chainId)
    .where("fromAddress", "=", fromAddress);

/** The signer's writes after `row` that the node lost too (a reorg removes a run of them), again in nonce order. */
async function rebroadcastMissingAfter(deps: ChainTaskDeps, row: TransactionRequestRow): Promise<void> {
  const later = await waitingWrites(deps, row.chainId, row.fromAddress)
    .selectAll()
    .where("nonce", ">", row.nonce as number)
    .orderBy("nonce")
    .limit(1_000)
    .execute();
  for (const write of later)
    if ((await poolStateOf(deps.chain, write.transactionHash as string)) === "absent") await rebroadcast(deps, write);
}

/**
 * Waits, bumps, rebroadcasts or times out each write without a receipt; whether any progressed. `lookedAt` holds when
 * this run last asked the node for the signer's next write (at most every MISSING_GRACE_MS).
 */
async function handleUnmined(
  deps: ChainTaskDeps,
  rows: TransactionRequestRow[],
  mined: number,
  lookedAt: Map<string, number>,
): Promise<boolean> {
  const { db, chain, config, logger } = deps;
  const stuck = [];
  let resent = false;
  for (const row of rows) {
    const age = ageMs(row);
    const next = row.nonce === mined && Date.now() - (lookedAt.get(row.id) ?? 0) > MISSING_GRACE_MS;
    if (next) lookedAt.set(row.id, Date.now());
    const lookUp = next || needsPoolLookup(age, config);
    const pool = lookUp ? await poolStateOf(chain, row.transactionHash as string) : undefined;
    const action = unminedAction(row, age, pool, config, next);
    if (action === "bump") stuck.push(row);
    else if (action === "rebroadcast") {
      await rebroadcast(deps, row);
      if (row.nonce === mined) await rebroadcastMissingAfter(deps, row);
      resent = true;
    } else if (action === "timeout") {
      await updateRequest(db, row.id, {
        subStatus: "RECEIPT_TIMEOUT",
        errorMessage: "No receipt yet; handed to reconciliation.",
      });
      logger.warn("receipt timed out; reconciliation takes over", { transactionId: row.id, hash: row.transactionHash });
    }
  }
  if (stuck.length > 0) await bumpFees(deps, stuck);
  return resent || stuck.length > 0;
}

function confirmOnChain(deps: ChainTaskDeps): TaskRun<SignerRun> {
  const { db, chain, config } = deps;
  return async ({ chainId, fromAddress }) => {
    const stopAt = Date.now() + RUN_BUDGET_MS;
    const waiting = waitingWrites(deps, chainId, fromAddress);
    const lookedAt = new Map<string, number>();
    for (let delay = 25; ; ) {
      // The signer's mined nonce count says which writes can have a receipt: only those are looked up, plus the
      // unmined ones waiting long enough to need a fee bump or a timeout. Nothing else is read on a poll.
      const mined = await chain.client.getTransactionCount({ address: fromAddress as Address, blockTag: "latest" });
      const due = await waiting
        .selectAll()
        .where((eb) =>
          eb.or([
            eb("nonce", "<", mined),
            eb("updatedAt", "<", new Date(Date.now() - patienceMs(config))),
            // The next nonce to be mined: when the node lost it, every later write of the signer waits behind it.
            eb.and([eb("nonce", "=", mined), eb("updatedAt", "<", new Date(Date.now() - MISSING_GRACE_MS))]),
          ]),
        )
        .orderBy("nonce")
        .limit(1_000)
        .execute();
      if (due.length === 0 && !(await waiting.select("id").limit(1).executeTakeFirst())) return;
      const minedRows = minedOf(due, mined);
      const completed = await settleMined(deps, minedRows);
      // Completed writes are watched until their blocks are final (watch-finality.ts).
      if (completed) await addKeyedJob(db, finalityJobSpec(chainId));
      const bumped = await handleUnmined(
        deps,
        due.filter((row) => !minedRows.includes(row)),
        mined,
        lookedAt,
      );
      if (Date.now() > stopAt) {
        await addKeyedJob(db, confirmJobSpec(chainId, fromAddress));
        return;
      }
      delay = nextPollDelay(delay, completed || bumped);
      await new Promise((r) => setTimeout(r, delay));
    }
  };
}
