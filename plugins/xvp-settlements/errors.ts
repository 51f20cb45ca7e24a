// The XvP settlement plugin's error codes: a settlement the organisation may not see, and every refusal of a
// creation, approval, execution or cancellation (by the route's precheck before queueing, or by the contract's revert).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  XVP_SETTLEMENT_NOT_FOUND: def("SVC-1801", 404, "client", false, "XvP settlement not found.", "No settlement at this address was created by the organisation's system or names one of its wallets in a flow.", "Use the address a creation answered (data.settlementAddress), or ask the creating organisation."),
  XVP_SETTLEMENT_INVALID: def("SVC-1802", 422, "domain", false, "The settlement cannot be created as given.", "A flow is invalid (zero amount, same sender and recipient) or the cutoffDate is not in the future (details name which).", "Send flows with distinct from and to and a positive amount, and a cutoffDate after the chain's current time."),
  XVP_SETTLEMENT_NOT_PARTY: def("SVC-1803", 403, "domain", false, "The signing wallet takes no part in the settlement.", "Approvals need a wallet that sends a leg; cancellations a sender, a recipient or the creator (details.signer, details.parties).", "Sign with the wallet named in the settlement's flows (walletSelection), or let that party act."),
  XVP_SETTLEMENT_EXECUTED: def("SVC-1804", 409, "domain", false, "The settlement is already executed.", "Every leg moved; nothing more can change.", "Read the settlement with GET; its executedInTransaction holds the legs' transfers."),
  XVP_SETTLEMENT_CANCELLED: def("SVC-1805", 409, "domain", false, "The settlement is cancelled.", "A party, recipient or the creator cancelled it; nothing moves any more.", "Create a new settlement."),
  XVP_SETTLEMENT_EXPIRED: def("SVC-1806", 409, "domain", false, "The settlement's cutoff has passed.", "It was not executed before its cutoffDate; nothing moves any more.", "Create a new settlement with a later cutoffDate."),
  XVP_SETTLEMENT_NOT_APPROVED: def("SVC-1807", 422, "domain", false, "Not every party has approved the settlement.", "Execution needs the approval of every sender of a leg (details.missingApprovals).", "Each party approves with POST /api/v2/addons/xvp-settlements/{address}/approvals, then execute."),
  XVP_SETTLEMENT_SECRET_INVALID: def("SVC-1808", 422, "domain", false, "The secret does not open the settlement's hashlock.", "The settlement has a hashlock: execution needs secret with keccak256(secret) = hashlock.", "Send the hashlock's preimage as secret (hex)."),
  XVP_SETTLEMENT_FACTORY_NOT_FOUND: def("SVC-1811", 409, "operational", false, "The system has no xvp-settlement factory.", "The organisation's system on this chain lists no addon of type xvp-settlement (GET /api/v2/system/addon-factories).", "Use a system created with the add-ons, or contact the platform operator."),
} as const satisfies Record<string, ErrorDefinition>;
