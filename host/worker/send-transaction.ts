// host:send-transaction: one run per (chain, signer) at a time (see sendJobSpec). A run sends every queued write of
// the signer in order: bytes signed before a crash go out again as they are; the others are signed once, their
// nonce reserved in the same database transaction that stores the signed bytes. Each is marked CONFIRMING together
// with its confirmation job. So a crash at any point resumes with the stored bytes: never a second, different
// transaction for one request.
import type { Task } from "graphile-worker";
import { type Kysely, sql } from "kysely";
import { type Address, type Hex, keccak256 } from "viem";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { decodeContractError } from "../mutations/contract-errors.ts";
import { CONFIRM_TASK, SEND_TASK, sendJobSpec } from "../mutations/service.ts";
import { isAlreadyKnown, type TransactionTaskDeps, updateRequest } from "./deps.ts";

/** Writes one run takes before it yields (the next run continues where it stopped). */
const BATCH = 200;

interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export function createSendTransactionTask(deps: TransactionTaskDeps): Task {
  const { db, chain, custody } = deps;

  async function sign(row: TransactionRequestRow, fees: Fees, pendingNonce: number): Promise<Hex | undefined> {
    const account = await custody.signer(row.organizationId, row.fromAddress as Address);
    const call = { account, to: row.toAddress as Address, data: row.data as Hex, value: BigInt(row.value) };
    let gas: bigint;
    try {
      gas = await chain.client.estimateGas(call);
    } catch (error) {
      // A call that would revert is refused before anything is sent.
      const contractError = decodeContractError(error);
      await updateRequest(db, row.id, {
        status: "FAILED",
        subStatus: "EXECUTION_REVERTED",
        errorMessage: contractError?.message ?? (error as Error).message.split("\n")[0],
        contractError: contractError ?? null,
      });
      return undefined;
    }
    return db.transaction().execute(async (trx) => {
      const reserved = await trx
        .selectFrom("signerNonces")
        .select("nextNonce")
        .where("chainId", "=", row.chainId)
        .where("address", "=", row.fromAddress)
        .forUpdate()
        .executeTakeFirst();
      const nonce = Math.max(reserved?.nextNonce ?? 0, pendingNonce);
      const raw = await account.signTransaction({
        chainId: chain.chainId,
        type: "eip1559",
        to: call.to,
        data: call.data,
        value: call.value,
        gas: (gas * 12n) / 10n,
        nonce,
        ...fees,
      });
      await trx
        .insertInto("signerNonces")
        .values({ chainId: row.chainId, address: row.fromAddress, nextNonce: nonce + 1 })
        .onConflict((oc) => oc.columns(["chainId", "address"]).doUpdateSet({ nextNonce: nonce + 1 }))
        .execute();
      await trx
        .updateTable("transactionRequests")
        .set({
          rawTransaction: raw,
          transactionHash: keccak256(raw),
          nonce,
          subStatus: "SIGNED",
          updatedAt: new Date(),
        })
        .where("id", "=", row.id)
        .execute();
      return raw;
    });
  }

  async function broadcast(raw: Hex) {
    try {
      await chain.client.sendRawTransaction({ serializedTransaction: raw });
    } catch (error) {
      if (!isAlreadyKnown(error)) throw error; // the run fails and is retried with backoff, with the same bytes
    }
  }

  /** CONFIRMING and its confirmation job in one transaction: neither exists without the other. */
  async function markBroadcast(row: TransactionRequestRow, raw: Hex) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("transactionRequests")
        .set({ status: "CONFIRMING", subStatus: "BROADCAST", transactionHash: keccak256(raw), updatedAt: new Date() })
        .where("id", "=", row.id)
        .where("status", "=", "QUEUED")
        .execute();
      await sql`select graphile_worker.add_job(${CONFIRM_TASK}, ${JSON.stringify({ transactionId: row.id })}::json,
        job_key => ${`confirm:${row.id}:${row.attempts}`}, max_attempts => 25)`.execute(
        trx as unknown as Kysely<unknown>,
      );
    });
  }

  return async (payload, helpers) => {
    const { chainId, fromAddress } = payload as { chainId: number; fromAddress: string };
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
    if (queued.length === 0) return;
    const [fees, pending] = await Promise.all([
      chain.client.estimateFeesPerGas(),
      chain.client.getTransactionCount({ address: fromAddress as Address, blockTag: "pending" }),
    ]);
    const gasFees = { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
    for (const row of queued) {
      const raw = (row.rawTransaction as Hex | null) ?? (await sign(row, gasFees, pending));
      if (!raw) continue; // refused before sending
      await broadcast(raw); // answered before the next is sent: the node sees nonces in order
      await markBroadcast(row, raw);
    }
    if (queued.length === BATCH) {
      const next = sendJobSpec(chainId, fromAddress); // more are waiting: the next run continues
      await helpers.addJob(SEND_TASK, next.payload, {
        queueName: next.queueName,
        jobKey: next.jobKey,
        maxAttempts: 25,
      });
    }
  };
}
