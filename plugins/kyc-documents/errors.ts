// The KYC documents plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  KYC_DOCUMENT_NOT_FOUND: { id: "SVC-1901", status: 404, category: "client", retryable: false, message: "KYC document not found.", why: "The participant has no document with this id in your organisation (it may have been deleted).", fix: "List the participant's documents with GET /api/v2/participants/{participantId}/kyc-documents and use one of their ids." },
  KYC_DOCUMENT_UNREADABLE: { id: "SVC-1902", status: 500, category: "operational", retryable: false, message: "The stored KYC document failed its integrity check.", why: "The encrypted file is missing, was altered, or was sealed under another master key: its authentication tag does not verify, so nothing is returned.", fix: "Restore the file and CUSTODY_MASTER_KEY from the same backup as the database, or upload the document again." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
