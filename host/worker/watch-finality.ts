// host:watch-finality: one run per chain at a time, every WATCH_INTERVAL_MS while a mined write there (COMPLETED, or
// FAILED by a revert: its nonce is used too) is not yet final (a job re-added with run_at, not a loop holding a
// worker slot); while the chain's head stays the same block (an idle chain) a run only reads the head and the next
// waits longer (watchDelayMs), none at all once nothing is left to watch. A write still in the block its request
// recorded is final once the head is the chain's finality depth past it. One a reorg moved to another block, with the
// same outcome, follows it. One a reorg removed (or re-included with another outcome) goes back to CONFIRMING /
// REORGED: its signed bytes are broadcast again at once, in nonce order, and its signer's confirmation run takes it
// over (which records the outcome from the receipt, or signs it anew once another transaction took its nonce).
import { z } from "zod";
import { defineTask, type TaskRun } from "./define-task.ts";
import { type ChainTaskDeps, perChainTask, type TransactionTaskDeps } from "./deps.ts";
import { finalityDepth, MINED_STATUSES, watchDelayMs } from "./finality.ts";
import { judgeWrites, recordVerdicts, unfinalWrites } from "./finality-pass.ts";
import { addKeyedJob, type KeyedJob } from "./keyed-jobs.ts";
import { resendReorged } from "./resend-reorged.ts";

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

/** Whether `chainId` has mined writes not yet final: then its watch is added (reconciliation's safety net). */
export async function ensureFinalityWatch(deps: Pick<TransactionTaskDeps, "db">, chainId: number): Promise<void> {
  const unfinal = await deps.db
    .selectFrom("transactionRequests")
    .select("id")
    .where("status", "in", MINED_STATUSES)
    .where("finalizedAt", "is", null)
    .where("executor", "=", "eoa")
    .where("chainId", "=", chainId)
    .where("blockNumber", "is not", null)
    .limit(1)
    .executeTakeFirst();
  if (unfinal) await addKeyedJob(deps.db, finalityJobSpec(chainId));
}

export function createWatchFinalityTask(deps: TransactionTaskDeps) {
  return defineTask(FinalityRunPayload, perChainTask(deps, watchOnChain));
}

function watchOnChain(deps: ChainTaskDeps): TaskRun<z.output<typeof FinalityRunPayload>> {
  const { db, chain, config, chains } = deps;
  const depth = finalityDepth(config, chains, chain.chainId);
  /** The head the last complete run of this process checked against, and the runs since that found it unchanged. */
  let checked: { hash: string; quietRuns: number } | undefined;
  const again = (chainId: number, quietRuns: number) =>
    addKeyedJob(db, finalityJobSpec(chainId, new Date(Date.now() + watchDelayMs(quietRuns))));

  return async ({ chainId }) => {
    const watched = await unfinalWrites(db, chainId, WATCHED);
    if (watched.length === 0) return;
    const latest = await chain.client.getBlock({ blockTag: "latest" });
    if (checked && checked.hash === latest.hash) {
      checked.quietRuns += 1;
      await again(chainId, checked.quietRuns);
      return;
    }
    const verdicts = await judgeWrites(chain, watched, latest.number, depth);
    await recordVerdicts(db, verdicts);
    if (verdicts.reorged.length > 0) await resendReorged(deps, verdicts.reorged);
    // Writes remain to be watched (the ones not final, the ones sent again once they complete): come back.
    checked = { hash: latest.hash, quietRuns: 0 };
    if (verdicts.final.length < watched.length || watched.length === WATCHED) await again(chainId, 0);
  };
}
