// host:send-transaction, one queue per (chain, signer): sign once (the nonce is reserved in the same database
// transaction that stores the signed bytes), broadcast, hand over to confirmation, and move on to the next write.
// A crash at any point resumes with the stored bytes: never a second, different transaction for one request.
import type { Task } from "graphile-worker";
import { type Address, type Hex, keccak256 } from "viem";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { decodeContractError } from "../mutations/contract-errors.ts";
import { CONFIRM_TASK, TERMINAL_STATES } from "../mutations/service.ts";
import { isAlreadyKnown, loadRequest, type TransactionTaskDeps, updateRequest } from "./deps.ts";

export function createSendTransactionTask(deps: TransactionTaskDeps): Task {
  const { db, chain, custody } = deps;

  async function sign(row: TransactionRequestRow): Promise<Hex | undefined> {
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
    const [pending, fees] = await Promise.all([
      chain.client.getTransactionCount({ address: account.address, blockTag: "pending" }),
      chain.client.estimateFeesPerGas(),
    ]);
    return db.transaction().execute(async (trx) => {
      const reserved = await trx
        .selectFrom("signerNonces")
        .select("nextNonce")
        .where("chainId", "=", row.chainId)
        .where("address", "=", row.fromAddress)
        .forUpdate()
        .executeTakeFirst();
      const nonce = Math.max(reserved?.nextNonce ?? 0, pending);
      const raw = await account.signTransaction({
        chainId: chain.chainId,
        type: "eip1559",
        to: call.to,
        data: call.data,
        value: call.value,
        gas: (gas * 12n) / 10n,
        nonce,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
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

  return async (payload, helpers) => {
    const { transactionId } = payload as { transactionId: string };
    const row = await loadRequest(db, transactionId);
    if (!row || TERMINAL_STATES.has(row.status)) return;
    const raw = (row.rawTransaction as Hex | null) ?? (await sign(row));
    if (!raw) return; // refused before sending
    try {
      await chain.client.sendRawTransaction({ serializedTransaction: raw });
    } catch (error) {
      if (!isAlreadyKnown(error)) throw error; // the worker retries with backoff, with the same bytes
    }
    if (row.status === "QUEUED") {
      await updateRequest(db, row.id, {
        status: "CONFIRMING",
        subStatus: "BROADCAST",
        transactionHash: keccak256(raw),
      });
    }
    await helpers.addJob(CONFIRM_TASK, { transactionId }, { jobKey: `confirm:${transactionId}`, maxAttempts: 25 });
  };
}
