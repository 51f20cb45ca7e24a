// The external tokens plugin's own error code (an already-registered token answers the spec's
// RESOURCE_ALREADY_EXISTS from the host registry).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  EXTERNAL_TOKEN_NOT_ELIGIBLE: { id: "SVC-0361", status: 422, category: "domain", retryable: false, message: "The address cannot be registered as an external token.", why: "It has no code (no-code) or it is one of the system's own contracts or tokens (system-managed); details.blockingReason names which.", fix: "Inspect the address with GET /api/v2/contracts/{address} and register only when registration.eligible is true." },
  EXTERNAL_TOKEN_NOT_FOUND: { id: "SVC-0362", status: 404, category: "client", retryable: false, message: "The token is not an external token of the system.", why: "The address is not registered in the system's external token registry.", fix: "Register it first with POST /api/v2/external-tokens, or use the platform token routes for a token of the system." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
