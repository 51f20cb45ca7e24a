// The bundler's error codes. They travel inside JSON-RPC responses (HTTP 200): `error.code` is the JSON-RPC code
// below (JSON-RPC 2.0 and ERC-7769), `error.data.dapiError` the public error object (spec: Errors, Envelopes). The
// status is the one the public object carries.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  BUNDLER_PARSE_ERROR: def("SVC-16001", 400, "client", false, "The body is not valid JSON.", "A JSON-RPC request must be a JSON object or array.", "Send a JSON-RPC 2.0 request (or a batch of them) as JSON."),
  BUNDLER_INVALID_REQUEST: def("SVC-16002", 400, "client", false, "The JSON-RPC request is invalid.", "A request needs jsonrpc \"2.0\", a string method, and params as an array (or none).", "Send {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":…,\"params\":[…]}."),
  BUNDLER_METHOD_NOT_FOUND: def("SVC-16003", 404, "client", false, "The method does not exist.", "The bundler serves the ERC-7769 methods (and the debug_bundler_ ones when BUNDLER_DEBUG_METHODS is true).", "Call eth_sendUserOperation, eth_estimateUserOperationGas, eth_getUserOperationByHash, eth_getUserOperationReceipt, eth_supportedEntryPoints or eth_chainId."),
  BUNDLER_INVALID_PARAMS: def("SVC-16004", 400, "client", false, "The method's parameters are invalid.", "A parameter is missing, malformed, names another EntryPoint, or a replacement does not raise the fees.", "Correct the named parameter; a replacement needs fees at least 10 % higher."),
  BUNDLER_INTERNAL_ERROR: def("SVC-16005", 500, "unknown", true, "The bundler failed unexpectedly.", "The bundler could not complete the call (e.g. the chain did not answer).", "Retry with backoff; quote the requestId when contacting support."),
  BUNDLER_USER_OPERATION_REJECTED: def("SVC-16010", 422, "domain", false, "The EntryPoint's simulation rejected the UserOperation.", "Validation of the operation failed in EntryPoint simulation (e.g. nonce, prefund, initCode, gas limits).", "Read the reason (the EntryPoint's AAxx code), fix the operation and send it again."),
  BUNDLER_PAYMASTER_REJECTED: def("SVC-16011", 422, "domain", false, "The paymaster rejected the UserOperation.", "The paymaster's validatePaymasterUserOp reverted or the paymaster is not deployed.", "Use a paymaster that sponsors this operation, or none."),
  BUNDLER_OPCODE_BANNED: def("SVC-16012", 422, "domain", false, "The UserOperation's validation uses a banned opcode.", "ERC-7562 forbids validation code of the account, factory and paymaster to read values that change before inclusion (e.g. TIMESTAMP, NUMBER, BALANCE, GAS not before a call).", "Validate without the named opcode, or send the operation to a private bundler that allows it."),
  BUNDLER_TIME_RANGE_INVALID: def("SVC-16013", 422, "domain", false, "The UserOperation is outside its valid time range.", "The account or paymaster made it valid only until a time that has passed (or is too near), or only after a time to come.", "Send it within its validity window, or sign one with a wider window."),
  BUNDLER_THROTTLED: def("SVC-16014", 429, "domain", true, "Too many pending UserOperations from this sender.", "An unstaked sender may have at most 4 operations waiting in the mempool.", "Wait for the pending operations to be included."),
  BUNDLER_STAKE_TOO_LOW: def("SVC-16015", 422, "domain", false, "The paymaster's stake is too low for what its validation does.", "ERC-7562 lets only a staked paymaster (at least 0.1 ETH, one day's unstake delay) return a context for postOp.", "Stake the paymaster at the EntryPoint (addStake), or return an empty context."),
  BUNDLER_AGGREGATOR_UNSUPPORTED: def("SVC-16016", 422, "domain", false, "Signature aggregators are not supported.", "The account's validation named an aggregator; this bundler bundles unaggregated operations only.", "Send an operation validated by the account itself."),
  BUNDLER_SIGNATURE_INVALID: def("SVC-16017", 422, "domain", false, "The UserOperation's signature is invalid.", "The account (or the paymaster) reported a signature failure in validation.", "Sign the operation's hash (eth_getUserOperationByHash's hash for this EntryPoint and chain) with the account's key."),
  BUNDLER_PAYMASTER_DEPOSIT_TOO_LOW: def("SVC-16018", 422, "domain", false, "The paymaster's deposit is too low.", "The paymaster's deposit at the EntryPoint does not cover this operation's maximum cost.", "Top up the paymaster's deposit (EntryPoint.depositTo) or lower the gas limits."),
  BUNDLER_METHOD_NOT_PERMITTED: def("SVC-16020", 403, "permission", false, "Your roles do not allow this bundler method.", "eth_sendUserOperation needs bundler:send (every role but auditor); debug_bundler_ methods need bundler:debug (owner, admin).", "Call it with a key of a user holding one of the roles named in details.requiredRoles."),
  BUNDLER_SPONSORSHIP_LIMIT_EXCEEDED: def("SVC-16021", 429, "domain", true, "The wallet's daily sponsorship limit is reached.", "A sender may have at most BUNDLER_SPONSORED_OPERATIONS_PER_DAY operations, worth at most BUNDLER_SPONSORED_WEI_PER_DAY at their maximum cost, paid by a paymaster in any 24 hours.", "Wait until older operations leave the 24-hour window (details.retryAfterSeconds), pay the gas from the wallet itself, or ask an operator to raise the limits."),
  BUNDLER_BATCH_TOO_LARGE: def("SVC-16022", 413, "client", false, "The JSON-RPC batch has too many requests.", "A batch may hold at most BUNDLER_MAX_BATCH_SIZE requests.", "Split the batch into smaller ones (details.maxBatchSize)."),
  BUNDLER_UNAVAILABLE: def("SVC-16019", 503, "dependency", true, "The bundler has no EntryPoint on this chain.", "The deployment manifest names no EntryPoint and the canonical v0.8 one is not on the chain.", "Start the platform with its own deployment, or give a manifest with entryPoint."),
} as const satisfies Record<string, ErrorDefinition>;

export type BundlerErrorCode = keyof typeof ERRORS;

/** Each code's JSON-RPC error code. */
export const JSON_RPC_CODES: Record<BundlerErrorCode, number> = {
  BUNDLER_PARSE_ERROR: -32700,
  BUNDLER_INVALID_REQUEST: -32600,
  BUNDLER_METHOD_NOT_FOUND: -32601,
  BUNDLER_INVALID_PARAMS: -32602,
  BUNDLER_INTERNAL_ERROR: -32603,
  BUNDLER_UNAVAILABLE: -32603,
  BUNDLER_USER_OPERATION_REJECTED: -32500,
  BUNDLER_PAYMASTER_REJECTED: -32501,
  BUNDLER_OPCODE_BANNED: -32502,
  BUNDLER_TIME_RANGE_INVALID: -32503,
  BUNDLER_THROTTLED: -32504,
  BUNDLER_STAKE_TOO_LOW: -32505,
  BUNDLER_AGGREGATOR_UNSUPPORTED: -32506,
  BUNDLER_SIGNATURE_INVALID: -32507,
  BUNDLER_PAYMASTER_DEPOSIT_TOO_LOW: -32508,
  // EIP-1193's "unauthorized" (viem: UnauthorizedProviderError); ERC-7769's "paymaster throttled"; EIP-1474's
  // "limit exceeded" (viem: LimitExceededRpcError).
  BUNDLER_METHOD_NOT_PERMITTED: 4100,
  BUNDLER_SPONSORSHIP_LIMIT_EXCEEDED: -32504,
  BUNDLER_BATCH_TOO_LARGE: -32005,
};
