// The XvP settlement plugin's error codes: a settlement the organisation may not see, and every refusal of a
// creation, approval, execution or cancellation (by the route's precheck before queueing, or by the contract's revert).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  XVP_SETTLEMENT_NOT_FOUND: { id: "SVC-1801", status: 404, category: "client", retryable: false, message: "XvP settlement not found.", why: "No settlement at this address was created by the organisation's system or names one of its wallets in a flow.", fix: "Use the address a creation answered (data.settlementAddress), or ask the creating organisation." },
  XVP_SETTLEMENT_INVALID: { id: "SVC-1802", status: 422, category: "domain", retryable: false, message: "The settlement cannot be created as given.", why: "A flow is invalid (zero amount, same sender and recipient) or the cutoffDate is not in the future (details name which).", fix: "Send flows with distinct from and to and a positive amount, and a cutoffDate after the chain's current time." },
  XVP_SETTLEMENT_NOT_PARTY: { id: "SVC-1803", status: 403, category: "domain", retryable: false, message: "The signing wallet takes no part in the settlement.", why: "Approvals need a wallet that sends a leg; cancellations a sender, a recipient or the creator (details.signer, details.parties).", fix: "Sign with the wallet named in the settlement's flows (walletSelection), or let that party act." },
  XVP_SETTLEMENT_EXECUTED: { id: "SVC-1804", status: 409, category: "domain", retryable: false, message: "The settlement is already executed.", why: "Every leg moved; nothing more can change.", fix: "Read the settlement with GET; its executedInTransaction holds the legs' transfers." },
  XVP_SETTLEMENT_CANCELLED: { id: "SVC-1805", status: 409, category: "domain", retryable: false, message: "The settlement is cancelled.", why: "A party, recipient or the creator cancelled it; nothing moves any more.", fix: "Create a new settlement." },
  XVP_SETTLEMENT_EXPIRED: { id: "SVC-1806", status: 409, category: "domain", retryable: false, message: "The settlement's cutoff has passed.", why: "It was not executed before its cutoffDate; nothing moves any more.", fix: "Create a new settlement with a later cutoffDate." },
  XVP_SETTLEMENT_NOT_APPROVED: { id: "SVC-1807", status: 422, category: "domain", retryable: false, message: "Not every party has approved the settlement.", why: "Execution needs the approval of every sender of a leg (details.missingApprovals).", fix: "Each party approves with POST /api/v2/addons/xvp-settlements/{address}/approvals, then execute." },
  XVP_SETTLEMENT_SECRET_INVALID: { id: "SVC-1808", status: 422, category: "domain", retryable: false, message: "The secret does not open the settlement's hashlock.", why: "The settlement has a hashlock: execution needs secret with keccak256(secret) = hashlock.", fix: "Send the hashlock's preimage as secret (hex)." },
  XVP_SETTLEMENT_FACTORY_NOT_FOUND: { id: "SVC-1811", status: 409, category: "operational", retryable: false, message: "The system has no xvp-settlement factory.", why: "The organisation's system on this chain lists no addon of type xvp-settlement (GET /api/v2/system/addon-factories).", fix: "Use a system created with the add-ons, or contact the platform operator." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
