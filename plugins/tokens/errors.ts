// The error codes of tokens (templates, features, creation, reads, supply operations and the token contracts'
// refusals), registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  TOKEN_TEMPLATE_NOT_FOUND: def("SVC-0301", 404, "client", false, "Unknown token template.", "No library or organisation template has this id.", "List the templates with GET /api/v2/token-templates and use one of their ids."),
  TOKEN_FEATURE_DEPENDENCY_MISSING: def("SVC-0304", 422, "domain", false, "A feature needs another feature that is not attached.", "The feature named in featureId only works together with requiredFeatureId.", "Add the required feature to featureConfigs (or choose a template that requires it)."),
  TOKEN_FEATURES_INCOMPATIBLE: def("SVC-0305", 422, "domain", false, "Two features cannot be attached together.", "The feature named in featureId excludes incompatibleFeatureId.", "Remove one of the two features from featureConfigs."),
  TOKEN_FEATURE_NOT_ATTACHED: def("SVC-0306", 404, "client", false, "The token does not carry this feature.", "The feature id in the path is not attached to the token.", "List the token's features with GET /api/v2/token/{address}/features."),
  TOKEN_FEATURE_HAS_NO_PARAMETERS: def("SVC-0307", 422, "domain", false, "This feature has no parameters to change.", "Features such as historical-balances, voting-power and permit have no configurable parameters.", "Send a parameter delta only for a feature with parameters."),
  TOKEN_FEATURE_CONVERSION_TARGET_INVALID: def("SVC-0308", 422, "domain", false, "The conversion target does not accept conversions.", "conversion.targetToken must be a token of your system carrying the conversion-minter feature, and conversionMinter must be that feature.", "Create the target token with conversion-minter first, then use its address and its conversion-minter feature's address."),
  COMPLIANCE_TEMPLATE_NOT_APPLICABLE: def("SVC-0309", 422, "domain", false, "The compliance template cannot be applied.", "Only published organisation templates and library templates apply at token creation, and every control needs its parameters.", "Publish the template (PUT .../publish) or supply the missing control parameters in complianceConfigs."),
  TOKEN_NOT_FOUND: def("SVC-0303", 404, "client", false, "Token not found.", "No token with this address exists in your organisation's system on this chain.", "Check the address and X-Chain-Id."),
  TOKEN_PRECHECKS_INVALID_ADDRESS_VALID_ETHEREUM_0X_PREFIXED_HEX_CHARACTERS: def("SVC-0014", 400, "client", false, "Invalid address.", "An address must be 0x followed by 40 hexadecimal characters.", "Send a valid 0x-prefixed EVM address."),
  TOKEN_INTERFACE_NOT_SUPPORTED: def("SVC-0015", 422, "domain", false, "The token contract is not compatible.", "The contract does not implement an interface the operation needs.", "Use a compatible token contract."),
  TOKEN_FROZEN_BALANCE_EXCEEDED: def("SVC-1106", 422, "domain", false, "The amount exceeds the unfrozen balance.", "Part of the balance is frozen; the amount is above what is available.", "Send at most the available (unfrozen) amount, or unfreeze first."),
  TOKEN_PAUSED: def("SVC-1101", 409, "domain", false, "The token is paused.", "The token's emergency pause stops transfers, mints and burns (and a second pause).", "Unpause the token first, or wait until it is unpaused."),
  TOKEN_NOT_PAUSED: def("SVC-1102", 409, "domain", false, "The token is not paused.", "Only a paused token can be unpaused.", "Read the token's state; nothing needs to be done."),
  TOKEN_ACCOUNT_FROZEN: def("SVC-1103", 409, "domain", false, "The address is frozen for this token.", "A custodian froze the sending or receiving address.", "Unfreeze the address, or use another one."),
  TOKEN_INSUFFICIENT_BALANCE: def("SVC-1104", 422, "domain", false, "The balance is too low.", "The amount is above the account's balance.", "Send at most the account's balance."),
  TOKEN_RECEIVER_NOT_VERIFIED: def("SVC-1110", 422, "domain", false, "The receiver is not verified in the identity registry.", "A forced transfer skips compliance but, as in ERC-3643, still needs a receiver the system's identity registry verifies (a registered identity); receiver names the wallet.", "Register the receiver's identity (POST /api/v2/system/identities), or force the transfer to a verified wallet."),
  COMPLIANCE_CHECK_FAILED: def("SVC-1105", 422, "domain", false, "A compliance rule refuses the operation.", "A compliance module of the token refused it; module, typeId and reason name the rule.", "Satisfy the rule (e.g. identity, country, limits), or change the token's compliance configuration."),
} as const satisfies Record<string, ErrorDefinition>;
