// The error codes of transaction requests, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  TRANSACTION_REQUEST_NOT_CANCELLABLE: { id: "SVC-9545", status: 409, category: "domain", retryable: false, message: "The transaction request can no longer be cancelled.", why: "Only a QUEUED request whose transaction is not signed yet can be cancelled: once signed it holds a nonce and may already be on its way to the chain (data.status is its current state).", fix: "Follow the request to its outcome with GET /api/v2/transaction-requests/{transactionId}." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
