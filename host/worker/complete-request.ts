// Records a mined transaction's outcome on its request: COMPLETED with the kind's result, or FAILED (reverted).
import type { TransactionReceipt } from "viem";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import type { ContractError } from "../mutations/contract-errors.ts";
import { type MutationService, TERMINAL_STATES } from "../mutations/service.ts";

/** Why a mined request failed, when more is known than the receipt's status (a user operation's revert reason). */
export interface MinedFailure {
  subStatus: string;
  errorMessage: string;
  contractError?: ContractError;
}

export async function completeRequest(
  db: PlatformDb,
  mutations: MutationService,
  row: TransactionRequestRow,
  receipt: TransactionReceipt,
  failure?: MinedFailure,
) {
  const kind = mutations.kinds.get(row.kind);
  const success = receipt.status === "success" && !failure;
  const result = success ? { ...(row.resultContext ?? {}), ...(kind?.result?.(receipt, row) ?? {}) } : {};
  const complete = (executor: PlatformDb) =>
    executor
      .updateTable("transactionRequests")
      .set({
        status: success ? "COMPLETED" : "FAILED",
        subStatus: success ? null : (failure?.subStatus ?? "REVERTED"),
        transactionHash: receipt.transactionHash,
        blockNumber: receipt.blockNumber,
        result: JSON.stringify(result),
        errorMessage: success ? null : (failure?.errorMessage ?? "The transaction reverted on chain."),
        ...(failure?.contractError ? { contractError: failure.contractError } : {}),
        updatedAt: new Date(),
      } as never)
      .where("id", "=", row.id)
      .where("status", "not in", [...TERMINAL_STATES])
      .returningAll()
      .executeTakeFirst();
  const onCompleted = success ? kind?.onCompleted : undefined;
  if (!onCompleted) {
    await complete(db); // one statement: no transaction needed
    return;
  }
  await db.transaction().execute(async (trx) => {
    const updated = await complete(trx as unknown as PlatformDb);
    if (updated) await onCompleted(trx as never, updated, result);
  });
}
