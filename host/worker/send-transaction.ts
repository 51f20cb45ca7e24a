// host:send-transaction: one run per (chain, signer) at a time (see sendJobSpec). A run takes the signer's queued
// writes in order, batch after batch while more arrive, and for each whole batch at once: estimates them (a write
// that would revert is refused, nothing sent), signs the ones still QUEUED and unsigned (locked, so a cancelled
// request takes no nonce) and stores the signed bytes with their nonces in one database transaction, broadcasts them
// in nonce order (each answered before the next), then marks them CONFIRMING and schedules the signer's confirmation
// run in one more transaction. Bytes stored before a crash go out again as they are: never a second, different
// transaction for one request.
import { type Kysely, sql, type Transaction } from "kysely";
import { type Address, type Hex, keccak256 } from "viem";
import { estimateGasForNextBlock, nextBlockTimestamp } from "../chain/estimate-gas.ts";
import { minesPerTransaction } from "../chain/mines-per-transaction.ts";
import { holdUntilActive } from "../custody/activation-gate.ts";
import type { PlatformTables, TransactionRequestRow } from "../db/platform-types.ts";
import { decodeContractError } from "../mutations/contract-errors.ts";
import { confirmJobSpec, type SignerRun, SignerRunPayload, sendJobSpec } from "../mutations/service.ts";
import { defineTask, type TaskRun } from "./define-task.ts";
import { type ChainTaskDeps, isAlreadyKnown, perChainTask, type TransactionTaskDeps, updateRequest } from "./deps.ts";
import { addKeyedJob, addKeyedJobSql } from "./keyed-jobs.ts";
import { nextNonce } from "./next-nonce.ts";

/** Writes one batch takes (the next batch continues where it stopped). */
const BATCH = 200;
/** A run sends batch after batch this long at most, then hands over to a fresh run. */
const RUN_BUDGET_MS = 10_000;

/**
 * Locks, of `ids`, the rows still QUEUED and unsigned until the signing transaction commits: a request cancelled
 * since the run read it is skipped (and takes no nonce), and a cancel that comes later finds it signed (409).
 */
async function lockSignable(trx: Transaction<PlatformTables>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await trx
    .selectFrom("transactionRequests")
    .select("id")
    .where("id", "in", ids)
    .where("status", "=", "QUEUED")
    .where("rawTransaction", "is", null)
    .forUpdate()
    .execute();
  return new Set(rows.map((row) => row.id));
}

export function createSendTransactionTask(deps: TransactionTaskDeps) {
  return defineTask(SignerRunPayload, perChainTask(deps, sendOnChain));
}

function sendOnChain(deps: ChainTaskDeps): TaskRun<SignerRun> {
  const { db, chain, custody } = deps;

  /**
   * Gas for each write not yet signed: its own limit, else the estimate with a margin; a write that would revert is
   * marked FAILED with its contract error.
   */
  async function estimate(rows: TransactionRequestRow[]): Promise<Map<string, bigint>> {
    const gas = new Map<string, bigint>();
    const timestamp = rows.some((row) => row.gasLimit === null) ? await nextBlockTimestamp(chain.client) : 0n;
    await Promise.all(
      rows.map(async (row) => {
        if (row.gasLimit !== null) return gas.set(row.id, BigInt(row.gasLimit));
        const account = await custody.signer(row.organizationId, row.fromAddress as Address);
        try {
          const query = { to: row.toAddress as Address, data: row.data as Hex, value: BigInt(row.value) };
          const estimated = await estimateGasForNextBlock(chain.client, { account, ...query }, timestamp);
          gas.set(row.id, (estimated * 12n) / 10n);
        } catch (error) {
          const contractError = decodeContractError(error);
          await updateRequest(
            db,
            row.id,
            {
              status: "FAILED",
              subStatus: "EXECUTION_REVERTED",
              errorMessage: contractError?.message ?? (error as Error).message.split("\n")[0],
              contractError: contractError ?? null,
            },
            "QUEUED", // a request cancelled meanwhile stays CANCELLED
          );
        }
      }),
    );
    return gas;
  }

  /**
   * Signs the batch and stores every signed transaction and the signer's next nonce in one transaction. The first
   * nonce is the node's pending count unless our reservation above it is still held (next-nonce.ts: a reorg frees it).
   */
  async function signAll(
    rows: TransactionRequestRow[],
    gas: Map<string, bigint>,
    fromAddress: string,
    chainId: number,
  ) {
    const [fees, pending] = await Promise.all([
      chain.client.estimateFeesPerGas(),
      chain.client.getTransactionCount({ address: fromAddress as Address, blockTag: "pending" }),
    ]);
    return db.transaction().execute(async (trx) => {
      const reserved = await trx
        .selectFrom("signerNonces")
        .select("nextNonce")
        .where("chainId", "=", chainId)
        .where("address", "=", fromAddress)
        .forUpdate()
        .executeTakeFirst();
      let nonce = await nextNonce(trx, chain, { chainId, fromAddress, reserved: reserved?.nextNonce ?? 0, pending });
      const signable = await lockSignable(trx, [...gas.keys()]);
      const signed = new Map<string, Hex>();
      const nonces = new Map<string, number>();
      for (const row of rows) {
        const limit = gas.get(row.id);
        if (limit === undefined || !signable.has(row.id)) continue;
        const account = await custody.signer(row.organizationId, row.fromAddress as Address, {
          requestId: row.id,
          caller: "worker:send-transaction",
        });
        const raw = await account.signTransaction({
          chainId: chain.chainId,
          type: "eip1559",
          to: row.toAddress as Address,
          data: row.data as Hex,
          value: BigInt(row.value),
          gas: limit,
          nonce,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        });
        signed.set(row.id, raw);
        nonces.set(row.id, nonce);
        nonce += 1;
      }
      if (signed.size > 0) {
        // Every signed write of the batch in one statement.
        const ids = [...signed.keys()];
        await sql`update platform.transaction_requests as r
          set raw_transaction = s.raw, transaction_hash = s.hash, nonce = s.nonce, sub_status = 'SIGNED', updated_at = now()
          from unnest(${ids}::text[], ${ids.map((id) => signed.get(id))}::text[],
                      ${ids.map((id) => keccak256(signed.get(id)!))}::text[], ${ids.map((id) => nonces.get(id))}::int[])
               as s(id, raw, hash, nonce)
          where r.id = s.id`.execute(trx as unknown as Kysely<unknown>);
      }
      await trx
        .insertInto("signerNonces")
        .values({ chainId, address: fromAddress, nextNonce: nonce })
        .onConflict((oc) => oc.columns(["chainId", "address"]).doUpdateSet({ nextNonce: nonce }))
        .execute();
      return signed;
    });
  }

  /**
   * In nonce order. To a node that mines a block per transaction each is answered before the next: anvil's automine
   * can take a JSON-RPC batch's entries out of order and then stalls on the nonce gap for good (seen in the mint
   * benchmark). Any other node holds a transaction ahead of a gap until it fills: the whole batch goes at once, in
   * one request (the client batches concurrent calls), not a round trip per transaction.
   */
  async function broadcastAll(raws: Hex[]) {
    const send = async (serializedTransaction: Hex) => {
      try {
        await chain.client.sendRawTransaction({ serializedTransaction });
      } catch (error) {
        if (!isAlreadyKnown(error)) throw error; // the run fails and is retried with backoff, with the same bytes
      }
    };
    if (raws.length > 1 && !(await minesPerTransaction(chain.client))) {
      await Promise.all(raws.map(send));
      return;
    }
    for (const raw of raws) await send(raw);
  }

  /** One batch of the signer's queued writes, sent; the rows it read. */
  async function sendBatch(chainId: number, fromAddress: string): Promise<TransactionRequestRow[]> {
    const queued = await db
      .selectFrom("transactionRequests")
      .selectAll()
      .where("status", "=", "QUEUED")
      .where("chainId", "=", chainId)
      .where("fromAddress", "=", fromAddress)
      .orderBy("createdAt")
      .orderBy("id")
      .limit(BATCH)
      .execute();
    if (queued.length === 0) return queued;

    // Bytes signed before a crash are sent as they are, first (their nonces come first).
    const resumed = queued.filter((row) => row.rawTransaction !== null);
    const unsigned = queued.filter((row) => row.rawTransaction === null);
    // Writes of a custody partition that is not active wait (a run comes back at the first one's deadline).
    const waitSeconds = deps.config.CUSTODY_ACTIVATION_WAIT_SECONDS;
    const { held, nextDeadline } = await holdUntilActive(db, custody, unsigned, waitSeconds);
    if (nextDeadline) await addKeyedJob(db, { ...sendJobSpec(chainId, fromAddress), runAt: nextDeadline });
    const fresh = unsigned.filter((row) => !held.has(row.id));
    const signed = await signAll(fresh, await estimate(fresh), fromAddress, chainId);
    const outgoing = [
      ...resumed.map((row) => ({ id: row.id, raw: row.rawTransaction as Hex })),
      ...fresh.filter((row) => signed.has(row.id)).map((row) => ({ id: row.id, raw: signed.get(row.id)! })),
    ];
    await broadcastAll(outgoing.map((tx) => tx.raw));

    if (outgoing.length > 0) {
      const confirm = confirmJobSpec(chainId, fromAddress);
      const confirmJobId = await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("transactionRequests")
          .set({ status: "CONFIRMING", subStatus: "BROADCAST", updatedAt: new Date() })
          .where(
            "id",
            "in",
            outgoing.map((tx) => tx.id),
          )
          .where("status", "=", "QUEUED")
          .execute();
        const { rows } = await sql<{ id: string | null }>`select ${addKeyedJobSql(confirm)} as id`.execute(trx);
        return rows[0]?.id ?? null;
      });
      if (confirmJobId === null) await addKeyedJob(db, confirm); // a run took the job before these were committed
    }
    return queued;
  }

  return async (payload) => {
    const { chainId, fromAddress } = payload;
    // Writes queued while a batch was being sent are sent by this run too, at once: they folded into the next job,
    // which a worker would only take at its next poll (up to a second later, so a burst missed blocks). A write is
    // read once per run (one left QUEUED by a batch is the next run's), and a run hands over after RUN_BUDGET_MS.
    const stopAt = Date.now() + RUN_BUDGET_MS;
    const seen = new Set<string>();
    for (;;) {
      const queued = await sendBatch(chainId, fromAddress);
      const fresh = queued.filter((row) => !seen.has(row.id));
      for (const row of queued) seen.add(row.id);
      if (fresh.length === 0) return;
      if (Date.now() > stopAt) {
        if (queued.length === BATCH) await addKeyedJob(db, sendJobSpec(chainId, fromAddress)); // the next run continues
        return;
      }
    }
  };
}
