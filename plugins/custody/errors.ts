// The error codes of moving an organisation's keys to the HSM, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  CUSTODY_MIGRATION_HSM_NOT_CONFIGURED: { id: "SVC-9740", status: 409, category: "operational", retryable: false, message: "No HSM is configured to move the keys to.", why: "The platform runs with CUSTODY_PROVIDER=software: there is no PKCS#11 token to create the organisation's keys in.", fix: "Start the platform with CUSTODY_PROVIDER=pkcs11 and its PKCS11_* settings, then repeat the request." },
  CUSTODY_MIGRATION_NOT_NEEDED: { id: "SVC-9741", status: 409, category: "client", retryable: false, message: "The organisation's keys are in the HSM already.", why: "Its custody record names the pkcs11 provider.", fix: "Nothing to move: read the custody partitions with GET /api/v2/custody/partitions." },
  CUSTODY_MIGRATION_NOT_FOUND: { id: "SVC-9742", status: 404, category: "client", retryable: false, message: "Custody migration not found.", why: "No move of keys with this id belongs to your active organisation.", fix: "Use the id POST /api/v2/custody/migrations answered, with that organisation active." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
