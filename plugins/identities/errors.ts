// The error codes of identities and claims, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  IDENTITY_NOT_FOUND: def("SVC-0531", 404, "client", false, "Identity not found.", "No identity with this address is in your organisation's system on this chain.", "List the system's identities and use one of their addresses (an identity, not its wallet)."),
  TOPIC_SCHEME_NOT_FOUND: def("SVC-0532", 404, "client", false, "Unknown claim topic.", "The system's topic scheme registry has no active topic with this name.", "Register the topic scheme with POST /api/v2/system/topic-schemes, or use a registered topic's name."),
  CLAIM_ISSUER_NOT_CONFIGURED: def("SVC-0533", 409, "domain", false, "The signing wallet is not a claim issuer yet.", "Claims are signed by the signing wallet for its claim issuer identity, which it does not have (or whose CLAIM key it lacks).", "Create it with POST /api/v2/system/claim-issuer, then trust it with POST /api/v2/system/trusted-issuers."),
  CLAIM_NOT_FOUND: def("SVC-0534", 404, "client", false, "Claim not found.", "The identity carries no claim with this id (or none from your claim issuer on this topic).", "Read the identity's claim events and use the claimId of an attached claim."),
} as const satisfies Record<string, ErrorDefinition>;
