// host:watch-finality: one run per chain at a time, every WATCH_INTERVAL_MS while a COMPLETED write there is not yet
// final (a job re-added with run_at, not a loop holding a worker slot). A write still in the block its request
// recorded is final once the head is the chain's finality depth past it. One a reorg moved to another block, with the
// same outcome, follows it. One a reorg removed goes back to CONFIRMING / REORGED: its signed bytes are broadcast
// again at once, in nonce order, and its signer's confirmation run takes it over (which completes it from the
// receipt, or signs it anew once another transaction took its nonce: the existing path).
import type { Hex } from "viem";
import { z } from "zod";
import { confirmJobSpec } from "../mutations/service.ts";
import { defineTask, type TaskRun } from "./define-task.ts";
import { type ChainTaskDeps, isAlreadyKnown, perChainTask, type TransactionTaskDeps } from "./deps.ts";
import { finalityDepth, finalityOf, type Inclusion, reorgedRequest } from "./finality.ts";
import { addKeyedJob, type KeyedJob } from "./keyed-jobs.ts";
import { receiptOfAny } from "./receipts.ts";

export const FINALITY_TASK = "host:watch-finality";

/** How often a chain's unfinal writes are checked: a removed write is noticed within about this (plus a poll). */
const WATCH_INTERVAL_MS = 1_000;
/** Writes one run checks at most, the newest first (a reorg removes the newest blocks). */
const WATCHED = 20_000;

export const FinalityRunPayload = z.object({ chainId: z.number().int() });

/**
 * The chain's watch: keyed per chain (a repeat folds into the pending run and keeps its time), its own queue (two
 * runs of a chain never overlap).
 */
export function finalityJobSpec(chainId: number, runAt?: Date): KeyedJob<z.input<typeof FinalityRunPayload>> {
  const name = `finality:${chainId}`;
  return {
    task: FINALITY_TASK,
    payload: { chainId },
    queueName: name,
    jobKey: name,
    runAt,
    jobKeyMode: "preserve_run_at",
  };
}

/** Whether `chainId` has COMPLETED writes not yet final: then its watch is added (reconciliation's safety net). */
export async function ensureFinalityWatch(deps: Pick<TransactionTaskDeps, "db">, chainId: number): Promise<void> {
  const unfinal = await deps.db
    .selectFrom("transactionRequests")
    .select("id")
    .where("status", "=", "COMPLETED")
    .where("finalizedAt", "is", null)
    .where("executor", "=", "eoa")
    .where("chainId", "=", chainId)
    .limit(1)
    .executeTakeFirst();
  if (unfinal) await addKeyedJob(deps.db, finalityJobSpec(chainId));
}

export function createWatchFinalityTask(deps: TransactionTaskDeps) {
  return defineTask(FinalityRunPayload, perChainTask(deps, watchOnChain));
}

function watchOnChain(deps: ChainTaskDeps): TaskRun<z.output<typeof FinalityRunPayload>> {
  const { db, chain, config, chains, logger } = deps;
  const depth = finalityDepth(config, chains, chain.chainId);

  /** Where each block number's transactions are now (undefined: no such block, the chain is shorter). */
  async function blockTransactions(numbers: bigint[]) {
    const blocks = await Promise.all(
      numbers.map((blockNumber) =>
        chain.client
          .getBlock({ blockNumber })
          .then((block) => new Set(block.transactions.map((hash) => hash.toLowerCase())))
          .catch((error: Error) => {
            if (error.name === "BlockNotFoundError") return undefined;
            throw error; // the node is unreachable: the run fails and is retried
          }),
      ),
    );
    return new Map(numbers.map((n, i) => [n, blocks[i]]));
  }

  /** Back to CONFIRMING / REORGED, then the same bytes again, in nonce order; the signer's confirmation run follows. */
  async function resend(ids: string[]) {
    const rows = await db
      .selectFrom("transactionRequests")
      .selectAll()
      .where("id", "in", ids)
      .orderBy("fromAddress")
      .orderBy("nonce")
      .execute();
    const signers = new Set<string>();
    for (const row of rows) {
      const moved = await db
        .updateTable("transactionRequests")
        .set({ ...reorgedRequest(row), updatedAt: new Date() })
        .where("id", "=", row.id)
        .where("status", "=", "COMPLETED") // as read: never a request that moved on meanwhile
        .where("transactionHash", "=", row.transactionHash)
        .executeTakeFirst();
      if (moved.numUpdatedRows === 0n) continue;
      signers.add(row.fromAddress);
      logger.warn("a reorg removed a completed write; broadcasting it again", {
        transactionId: row.id,
        removedHash: row.transactionHash,
        blockNumber: String(row.blockNumber),
      });
      try {
        await chain.client.sendRawTransaction({ serializedTransaction: row.rawTransaction as Hex });
      } catch (error) {
        // Its nonce was taken meanwhile ("nonce too low"), or the node refuses it: the confirmation run decides.
        if (!isAlreadyKnown(error))
          logger.warn("the node refused the reorged write", { transactionId: row.id, error: String(error) });
      }
    }
    for (const from of signers) await addKeyedJob(db, confirmJobSpec(chain.chainId, from));
  }

  return async ({ chainId }) => {
    const watched = await db
      .selectFrom("transactionRequests")
      .select(["id", "transactionHash", "replacedHashes", "blockNumber"])
      .where("status", "=", "COMPLETED")
      .where("finalizedAt", "is", null)
      .where("executor", "=", "eoa")
      .where("chainId", "=", chainId)
      .where("blockNumber", "is not", null)
      .orderBy("blockNumber", "desc")
      .limit(WATCHED)
      .execute();
    if (watched.length === 0) return;
    const head = await chain.client.getBlockNumber({ cacheTime: 0 });
    const blocks = await blockTransactions([...new Set(watched.map((row) => row.blockNumber as bigint))]);
    const final: string[] = [];
    const reorged: string[] = [];
    for (const row of watched) {
      const recorded = row.blockNumber as bigint;
      let inclusion: Inclusion = { in: "recorded-block" };
      if (!blocks.get(recorded)?.has(String(row.transactionHash).toLowerCase())) {
        const receipt = await receiptOfAny(chain, row);
        inclusion = receipt
          ? {
              in: "other-block",
              blockNumber: receipt.blockNumber,
              transactionHash: receipt.transactionHash,
              success: receipt.status === "success",
            }
          : { in: "none" };
      }
      const decision = finalityOf(recorded, inclusion, head, depth);
      if (decision.action === "final") final.push(row.id);
      else if (decision.action === "reorged") reorged.push(row.id);
      else if (decision.action === "moved") {
        await db
          .updateTable("transactionRequests")
          .set({ blockNumber: decision.blockNumber, transactionHash: decision.transactionHash, updatedAt: new Date() })
          .where("id", "=", row.id)
          .where("status", "=", "COMPLETED")
          .execute();
      }
    }
    if (final.length > 0) {
      await db
        .updateTable("transactionRequests")
        .set({ finalizedAt: new Date() })
        .where("id", "in", final)
        .where("status", "=", "COMPLETED")
        .execute();
    }
    if (reorged.length > 0) await resend(reorged);
    // Writes remain to be watched (the ones not final, the ones sent again once they complete): come back.
    if (final.length < watched.length || watched.length === WATCHED) {
      await addKeyedJob(db, finalityJobSpec(chainId, new Date(Date.now() + WATCH_INTERVAL_MS)));
    }
  };
}
