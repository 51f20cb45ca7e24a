// host:watch-finality: one run per chain at a time, every WATCH_INTERVAL_MS while a COMPLETED write there is not yet
// final (a job re-added with run_at, not a loop holding a worker slot); while the chain's head stays the same block
// (an idle chain) a run only reads the head and the next waits longer (watchDelayMs), none at all once nothing is
// left to watch. A write still in the block its request
// recorded is final once the head is the chain's finality depth past it. One a reorg moved to another block, with the
// same outcome, follows it. One a reorg removed goes back to CONFIRMING / REORGED: its signed bytes are broadcast
// again at once, in nonce order, and its signer's confirmation run takes it over (which completes it from the
// receipt, or signs it anew once another transaction took its nonce: the existing path).
import { z } from "zod";
import { confirmJobSpec } from "../mutations/service.ts";
import { defineTask, type TaskRun } from "./define-task.ts";
import { type ChainTaskDeps, perChainTask, type TransactionTaskDeps } from "./deps.ts";
import { finalityDepth, finalityOf, type Inclusion, reorgedRequest, watchDelayMs } from "./finality.ts";
import { addKeyedJob, type KeyedJob } from "./keyed-jobs.ts";
import { receiptOfAny } from "./receipts.ts";
import { broadcastAgain } from "./resend.ts";

export const FINALITY_TASK = "host:watch-finality";

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
      const back = { ...reorgedRequest(row), updatedAt: new Date() };
      const moved = await db
        .updateTable("transactionRequests")
        .set(back)
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
      // Its nonce taken meanwhile ("nonce too low"): the confirmation run signs it anew. Its fees now under the base
      // fee: signed anew at its nonce with bumped fees. Another refusal is logged; confirmation decides.
      await broadcastAgain(deps, { ...row, ...back });
    }
    for (const from of signers) await addKeyedJob(db, confirmJobSpec(chain.chainId, from));
  }

  /** The head the last complete run of this process checked against, and the runs since that found it unchanged. */
  let checked: { hash: string; quietRuns: number } | undefined;
  const again = (chainId: number, quietRuns: number) =>
    addKeyedJob(db, finalityJobSpec(chainId, new Date(Date.now() + watchDelayMs(quietRuns))));

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
    const latest = await chain.client.getBlock({ blockTag: "latest" });
    if (checked && checked.hash === latest.hash) {
      checked.quietRuns += 1;
      await again(chainId, checked.quietRuns);
      return;
    }
    const head = latest.number;
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
    checked = { hash: latest.hash, quietRuns: 0 };
    if (final.length < watched.length || watched.length === WATCHED) await again(chainId, 0);
  };
}
