// Serializes a transaction_requests row as the API's TransactionRequest.
import type { TransactionRequestRow } from "../../host/db/platform-types.ts";
import { type ContractError, withErrorCode } from "../../host/mutations/contract-errors.ts";
import type { TransactionRequest } from "./schemas.ts";

export function toTransactionRequest(row: TransactionRequestRow): TransactionRequest {
  return {
    transactionId: row.id,
    kind: row.kind,
    status: row.status as TransactionRequest["status"],
    subStatus: row.subStatus,
    transactionHash: row.transactionHash,
    transactionHashes: row.broadcastHashes ?? [],
    blockNumber: row.blockNumber === null ? null : row.blockNumber.toString(),
    errorMessage: row.errorMessage,
    // The table's dalpCode, retryable and suggestedAction also for a request recorded before they were.
    ...(row.contractError ? { contractError: withErrorCode(row.contractError as ContractError) } : {}),
    description: row.description,
    fromAddress: row.fromAddress,
    chainId: row.chainId,
    speed: row.speed,
    result: (row.result as Record<string, unknown> | null) ?? null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
