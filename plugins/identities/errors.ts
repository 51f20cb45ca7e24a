// The error codes of identities and claims, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  IDENTITY_NOT_FOUND: { id: "SVC-0531", status: 404, category: "client", retryable: false, message: "Identity not found.", why: "No identity with this address is in your organisation's system on this chain.", fix: "List the system's identities and use one of their addresses (an identity, not its wallet)." },
  TOPIC_SCHEME_NOT_FOUND: { id: "SVC-0532", status: 404, category: "client", retryable: false, message: "Unknown claim topic.", why: "The system's topic scheme registry has no active topic with this name.", fix: "Register the topic scheme with POST /api/v2/system/topic-schemes, or use a registered topic's name." },
  CLAIM_ISSUER_NOT_CONFIGURED: { id: "SVC-0533", status: 409, category: "domain", retryable: false, message: "The signing wallet is not a claim issuer yet.", why: "Claims are signed by the signing wallet for its claim issuer identity, which it does not have (or whose CLAIM key it lacks).", fix: "Create it with POST /api/v2/system/claim-issuer, then trust it with POST /api/v2/system/trusted-issuers." },
  CLAIM_NOT_FOUND: { id: "SVC-0534", status: 404, category: "client", retryable: false, message: "Claim not found.", why: "The identity carries no claim with this id (or none from your claim issuer on this topic).", fix: "Read the identity's claim events and use the claimId of an attached claim." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
