// The worker task behind every chain write. It signs once and stores the signed bytes before sending, so a
// crash at any point resumes by rebroadcasting the same transaction: never a second, different send.
import type { Task } from "graphile-worker";
import type { Address, Hex, TransactionReceipt } from "viem";
import { keccak256 } from "viem";
import type { ChainService } from "../chain/chain-service.ts";
import type { Custody } from "../custody/custody.ts";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import type { Logger } from "../logger.ts";
import { decodeContractError } from "../mutations/contract-errors.ts";
import { type MutationService, TERMINAL_STATES } from "../mutations/service.ts";

const RECEIPT_TIMEOUT_MS = 60_000;

interface Deps {
  db: PlatformDb;
  chain: ChainService;
  custody: Custody;
  mutations: MutationService;
  logger: Logger;
}

function isAlreadyKnown(error: unknown): boolean {
  const text = String((error as Error)?.message ?? error).toLowerCase();
  return text.includes("already known") || text.includes("nonce too low") || text.includes("already imported");
}

export function createExecuteTransactionTask(deps: Deps): Task {
  const { db, chain, custody, mutations, logger } = deps;

  async function update(id: string, values: Partial<TransactionRequestRow>) {
    await db
      .updateTable("transactionRequests")
      .set({ ...values, updatedAt: new Date() } as never)
      .where("id", "=", id)
      .execute();
  }

  async function sign(row: TransactionRequestRow): Promise<Hex | undefined> {
    const account = await custody.signer(row.organizationId, row.fromAddress as Address);
    const call = { account, to: row.toAddress as Address, data: row.data as Hex, value: BigInt(row.value) };
    let gas: bigint;
    try {
      gas = await chain.client.estimateGas(call);
    } catch (error) {
      // A call that would revert is refused before anything is sent.
      const contractError = decodeContractError(error);
      await update(row.id, {
        status: "FAILED",
        subStatus: "EXECUTION_REVERTED",
        errorMessage: contractError?.message ?? (error as Error).message.split("\n")[0],
        contractError: contractError ?? null,
      });
      return undefined;
    }
    const nonce = await chain.client.getTransactionCount({ address: account.address, blockTag: "pending" });
    const fees = await chain.client.estimateFeesPerGas();
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
    await update(row.id, { rawTransaction: raw, transactionHash: keccak256(raw), nonce, subStatus: "SIGNED" });
    return raw;
  }

  async function complete(row: TransactionRequestRow, receipt: TransactionReceipt) {
    const kind = mutations.kinds.get(row.kind);
    const success = receipt.status === "success";
    const result = success ? (kind?.result?.(receipt, row) ?? {}) : {};
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("transactionRequests")
        .set({
          status: success ? "COMPLETED" : "FAILED",
          subStatus: success ? null : "REVERTED",
          blockNumber: receipt.blockNumber,
          result: JSON.stringify(result),
          errorMessage: success ? null : "The transaction reverted on chain.",
          updatedAt: new Date(),
        } as never)
        .where("id", "=", row.id)
        .where("status", "not in", [...TERMINAL_STATES])
        .returningAll()
        .executeTakeFirst();
      if (updated && success) await kind?.onCompleted?.(trx as never, updated, result);
    });
  }

  return async (payload, helpers) => {
    const { transactionId } = payload as { transactionId: string };
    const row = await db
      .selectFrom("transactionRequests")
      .selectAll()
      .where("id", "=", transactionId)
      .executeTakeFirst();
    if (!row || TERMINAL_STATES.has(row.status)) return;
    const log = logger.child({ transactionId, kind: row.kind });

    const raw = (row.rawTransaction as Hex | null) ?? (await sign(row));
    if (!raw) return; // refused before sending
    const hash = keccak256(raw);
    try {
      await chain.client.sendRawTransaction({ serializedTransaction: raw });
    } catch (error) {
      if (!isAlreadyKnown(error)) throw error; // retried by the worker with backoff
    }
    if (row.status === "QUEUED")
      await update(row.id, { status: "CONFIRMING", subStatus: "BROADCAST", transactionHash: hash });

    let receipt: TransactionReceipt;
    try {
      receipt = await chain.client.waitForTransactionReceipt({
        hash,
        timeout: RECEIPT_TIMEOUT_MS,
        pollingInterval: 100,
      });
    } catch (error) {
      const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
      if (lastAttempt) {
        await update(row.id, {
          status: "DEAD_LETTER",
          subStatus: "RECEIPT_MISSING",
          errorMessage: "No receipt after every retry; needs manual intervention.",
        });
        return;
      }
      log.warn("receipt not found yet; the job will retry", { hash });
      throw error;
    }
    await complete(row, receipt);
    log.info("transaction mined", { hash, status: receipt.status, block: receipt.blockNumber });
  };
}
