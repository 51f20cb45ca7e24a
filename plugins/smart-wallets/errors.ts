// The smart wallets' error codes; the spec's four threshold errors first (Endpoints → Smart wallets and bundler).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  SMART_WALLET_NOT_FOUND: def("SVC-16501", 404, "client", false, "No smart wallet at this address for your organisation on this chain.", "The address is not a smart wallet the platform provisioned for a participant of the active organisation on the request's chain.", "Check the address and X-Chain-Id; provision one with POST /api/v2/smart-wallets."),
  SMART_WALLET_OWNER_REQUIRED: def("SVC-16502", 403, "permission", false, "Only the wallet's owner may do this.", "The smart wallet belongs to another participant.", "Act as the wallet's owner (X-Participant) or ask them."),
  SMART_WALLET_MULTISIG_VALIDATOR_REQUIRED: def("SVC-16503", 409, "domain", false, "The wallet has no weighted multisig validator.", "A threshold exists only on wallets created with validatorType weighted-multisig.", "Create the wallet with validatorType weighted-multisig, signers and a threshold."),
  SMART_WALLET_THRESHOLD_INVALID: def("SVC-16504", 400, "client", false, "threshold must be a decimal integer from 1 to 18446744073709551615.", "The threshold is a weight sum held in a uint64 and cannot be zero.", "Send threshold as a decimal string, e.g. \"2\"."),
  SMART_WALLET_SIGNERS_INVALID: def("SVC-16505", 400, "client", false, "The wallet's signers are invalid.", "Signers must be distinct addresses with weights from 1 to 18446744073709551615, and the threshold reachable by their weights.", "Correct the named signer or the threshold."),
  SMART_WALLET_SIGNER_REQUIRED: def("SVC-16506", 403, "permission", false, "You hold no signing key of this wallet.", "None of the acting participant's custody wallets is a signer of the smart wallet.", "Ask a co-signer to sign, or act as one (X-Participant)."),
  SMART_WALLET_APPROVAL_NOT_FOUND: def("SVC-16507", 404, "client", false, "No pending approval with this userOpHash for this wallet.", "The operation is not waiting for signatures (it was approved, cancelled, or never existed).", "List pending approvals with GET /api/v2/smart-wallets/{address}/approvals."),
  SMART_WALLET_NOT_DEPLOYED: def("SVC-16508", 409, "domain", false, "The smart wallet or the organisation's paymaster is not deployed yet.", "Sponsorship is set on the organisation's paymaster for a deployed wallet; the paymaster exists once a sponsored wallet has been deployed.", "Wait for the deployment (GET /api/v2/smart-wallets/{address}), or provision a sponsored wallet first."),
} as const satisfies Record<string, ErrorDefinition>;
