// The smart wallets' error codes; the spec's four threshold errors first (Endpoints → Smart wallets and bundler).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  SMART_WALLET_NOT_FOUND: { id: "SVC-16501", status: 404, category: "client", retryable: false, message: "No smart wallet at this address for your organisation on this chain.", why: "The address is not a smart wallet the platform provisioned for a participant of the active organisation on the request's chain.", fix: "Check the address and X-Chain-Id; provision one with POST /api/v2/smart-wallets." },
  SMART_WALLET_OWNER_REQUIRED: { id: "SVC-16502", status: 403, category: "permission", retryable: false, message: "Only the wallet's owner may do this.", why: "The smart wallet belongs to another participant.", fix: "Act as the wallet's owner (X-Participant) or ask them." },
  SMART_WALLET_MULTISIG_VALIDATOR_REQUIRED: { id: "SVC-16503", status: 409, category: "domain", retryable: false, message: "The wallet has no weighted multisig validator.", why: "A threshold exists only on wallets created with validatorType weighted-multisig.", fix: "Create the wallet with validatorType weighted-multisig, signers and a threshold." },
  SMART_WALLET_THRESHOLD_INVALID: { id: "SVC-16504", status: 400, category: "client", retryable: false, message: "threshold must be a decimal integer from 1 to 18446744073709551615.", why: "The threshold is a weight sum held in a uint64 and cannot be zero.", fix: "Send threshold as a decimal string, e.g. \"2\"." },
  SMART_WALLET_SIGNERS_INVALID: { id: "SVC-16505", status: 400, category: "client", retryable: false, message: "The wallet's signers are invalid.", why: "Signers must be distinct addresses with weights from 1 to 18446744073709551615, and the threshold reachable by their weights.", fix: "Correct the named signer or the threshold." },
  SMART_WALLET_SIGNER_REQUIRED: { id: "SVC-16506", status: 403, category: "permission", retryable: false, message: "You hold no signing key of this wallet.", why: "None of the acting participant's custody wallets is a signer of the smart wallet.", fix: "Ask a co-signer to sign, or act as one (X-Participant)." },
  SMART_WALLET_APPROVAL_NOT_FOUND: { id: "SVC-16507", status: 404, category: "client", retryable: false, message: "No pending approval with this userOpHash for this wallet.", why: "The operation is not waiting for signatures (it was approved, cancelled, or never existed).", fix: "List pending approvals with GET /api/v2/smart-wallets/{address}/approvals." },
  SMART_WALLET_NOT_DEPLOYED: { id: "SVC-16508", status: 409, category: "domain", retryable: false, message: "The smart wallet or the organisation's paymaster is not deployed yet.", why: "Sponsorship is set on the organisation's paymaster for a deployed wallet; the paymaster exists once a sponsored wallet has been deployed.", fix: "Wait for the deployment (GET /api/v2/smart-wallets/{address}), or provision a sponsored wallet first." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
