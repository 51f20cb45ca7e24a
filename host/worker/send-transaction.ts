// host:send-transaction: one run per (chain, signer) at a time (see sendJobSpec). A run takes the signer's queued
// writes in order, batch after batch while more arrive, and for each whole batch at once: estimates them (a write
// that would revert is refused, nothing sent), signs the ones still QUEUED and unsigned (locked, so a cancelled
// request takes no nonce) and stores the signed bytes with their nonces in one database transaction, broadcasts them
// in nonce order (each answered before the next), then marks them CONFIRMING and schedules the signer's confirmation
// run in one more transaction. Bytes stored before a crash go out again as they are: never a second, different
// transaction for one request. The decisions are in send-plan.ts, each step in its own file.
import { sql } from "kysely";
import { holdUntilActive } from "../custody/activation-gate.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { confirmJobSpec, type SignerRun, SignerRunPayload, sendJobSpec } from "../mutations/service.ts";
import { broadcastBatch } from "./broadcast-batch.ts";
import { defineTask, type TaskRun } from "./define-task.ts";
import { type ChainTaskDeps, perChainTask, type TransactionTaskDeps } from "./deps.ts";
import { estimateBatch } from "./estimate-batch.ts";
import { addKeyedJob, addKeyedJobSql } from "./keyed-jobs.ts";
import { afterBatch, BATCH, outgoingOf } from "./send-plan.ts";
import { signBatch } from "./sign-batch.ts";

/** A run sends batch after batch this long at most, then hands over to a fresh run. */
const RUN_BUDGET_MS = 10_000;

export function createSendTransactionTask(deps: TransactionTaskDeps) {
  return defineTask(SignerRunPayload, perChainTask(deps, sendOnChain));
}

/** The writes broadcast are CONFIRMING, and the signer's confirmation run is scheduled, in one transaction. */
async function markBroadcast({ db }: ChainTaskDeps, signer: SignerRun, ids: string[]): Promise<void> {
  const confirm = confirmJobSpec(signer.chainId, signer.fromAddress);
  const confirmJobId = await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("transactionRequests")
      .set({ status: "CONFIRMING", subStatus: "BROADCAST", updatedAt: new Date() })
      .where("id", "in", ids)
      .where("status", "=", "QUEUED")
      .execute();
    const { rows } = await sql<{ id: string | null }>`select ${addKeyedJobSql(confirm)} as id`.execute(trx);
    return rows[0]?.id ?? null;
  });
  if (confirmJobId === null) await addKeyedJob(db, confirm); // a run took the job before these were committed
}

/** One batch of the signer's queued writes, sent; the rows it read. */
async function sendBatch(deps: ChainTaskDeps, signer: SignerRun): Promise<TransactionRequestRow[]> {
  const queued = await deps.db
    .selectFrom("transactionRequests")
    .selectAll()
    .where("status", "=", "QUEUED")
    .where("chainId", "=", signer.chainId)
    .where("fromAddress", "=", signer.fromAddress)
    .orderBy("createdAt")
    .orderBy("id")
    .limit(BATCH)
    .execute();
  if (queued.length === 0) return queued;

  const resumed = queued.filter((row) => row.rawTransaction !== null);
  const unsigned = queued.filter((row) => row.rawTransaction === null);
  // Writes of a custody partition that is not active wait (a run comes back at the first one's deadline).
  const waitSeconds = deps.config.CUSTODY_ACTIVATION_WAIT_SECONDS;
  const { held, nextDeadline } = await holdUntilActive(deps.db, deps.custody, unsigned, waitSeconds);
  if (nextDeadline)
    await addKeyedJob(deps.db, { ...sendJobSpec(signer.chainId, signer.fromAddress), runAt: nextDeadline });
  const fresh = unsigned.filter((row) => !held.has(row.id));
  const signed = await signBatch(deps, fresh, await estimateBatch(deps, fresh), signer);
  const outgoing = outgoingOf(resumed, fresh, signed);
  await broadcastBatch(
    deps.chain,
    outgoing.map((tx) => tx.raw),
  );
  if (outgoing.length > 0)
    await markBroadcast(
      deps,
      signer,
      outgoing.map((tx) => tx.id),
    );
  return queued;
}

function sendOnChain(deps: ChainTaskDeps): TaskRun<SignerRun> {
  return async (signer) => {
    // Writes queued while a batch was being sent are sent by this run too, at once: they folded into the next job,
    // which a worker would only take at its next poll (up to a second later, so a burst missed blocks). A write is
    // read once per run (one left QUEUED by a batch is the next run's), and a run hands over after RUN_BUDGET_MS.
    const stopAt = Date.now() + RUN_BUDGET_MS;
    const seen = new Set<string>();
    for (;;) {
      const queued = await sendBatch(deps, signer);
      const unseen = queued.filter((row) => !seen.has(row.id)).length;
      for (const row of queued) seen.add(row.id);
      const next = afterBatch({ unseen, read: queued.length, overBudget: Date.now() > stopAt });
      if (next === "hand-over") await addKeyedJob(deps.db, sendJobSpec(signer.chainId, signer.fromAddress));
      if (next !== "continue") return;
    }
  };
}
