// The bundler's error codes. They travel inside JSON-RPC responses (HTTP 200): `error.code` is the JSON-RPC code
// below (JSON-RPC 2.0 and ERC-7769), `error.data.dapiError` the public error object (spec: Errors, Envelopes). The
// status is the one the public object carries.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  BUNDLER_PARSE_ERROR: { id: "SVC-16001", status: 400, category: "client", retryable: false, message: "The body is not valid JSON.", why: "A JSON-RPC request must be a JSON object or array.", fix: "Send a JSON-RPC 2.0 request (or a batch of them) as JSON." },
  BUNDLER_INVALID_REQUEST: { id: "SVC-16002", status: 400, category: "client", retryable: false, message: "The JSON-RPC request is invalid.", why: "A request needs jsonrpc \"2.0\", a string method, and params as an array (or none).", fix: "Send {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":…,\"params\":[…]}." },
  BUNDLER_METHOD_NOT_FOUND: { id: "SVC-16003", status: 404, category: "client", retryable: false, message: "The method does not exist.", why: "The bundler serves the ERC-7769 methods (and the debug_bundler_ ones when BUNDLER_DEBUG_METHODS is true).", fix: "Call eth_sendUserOperation, eth_estimateUserOperationGas, eth_getUserOperationByHash, eth_getUserOperationReceipt, eth_supportedEntryPoints or eth_chainId." },
  BUNDLER_INVALID_PARAMS: { id: "SVC-16004", status: 400, category: "client", retryable: false, message: "The method's parameters are invalid.", why: "A parameter is missing, malformed, names another EntryPoint, or a replacement does not raise the fees.", fix: "Correct the named parameter; a replacement needs fees at least 10 % higher." },
  BUNDLER_INTERNAL_ERROR: { id: "SVC-16005", status: 500, category: "unknown", retryable: true, message: "The bundler failed unexpectedly.", why: "The bundler could not complete the call for a reason of its own.", fix: "Retry with backoff; quote the requestId when contacting support." },
  BUNDLER_DEPENDENCY_UNAVAILABLE: { id: "SVC-16006", status: 503, category: "dependency", retryable: true, message: "A part the bundler needs did not answer in time.", why: "The chain's node did not answer within CHAIN_REQUEST_TIMEOUT_SECONDS (e.g. overloaded), or the database could not be reached (e.g. restarting). A retry is safe: an operation sent again is the same operation (its hash), never a second one.", fix: "Retry with exponential backoff (viem's transports retry JSON-RPC -32603 by themselves)." },
  BUNDLER_USER_OPERATION_REJECTED: { id: "SVC-16010", status: 422, category: "domain", retryable: false, message: "The EntryPoint's simulation rejected the UserOperation.", why: "Validation of the operation failed in EntryPoint simulation (e.g. nonce, prefund, initCode, gas limits).", fix: "Read the reason (the EntryPoint's AAxx code), fix the operation and send it again." },
  BUNDLER_PAYMASTER_REJECTED: { id: "SVC-16011", status: 422, category: "domain", retryable: false, message: "The paymaster rejected the UserOperation.", why: "The paymaster's validatePaymasterUserOp reverted or the paymaster is not deployed.", fix: "Use a paymaster that sponsors this operation, or none." },
  BUNDLER_OPCODE_BANNED: { id: "SVC-16012", status: 422, category: "domain", retryable: false, message: "The UserOperation's validation uses a banned opcode.", why: "ERC-7562 forbids validation code of the account, factory and paymaster to read values that change before inclusion (e.g. TIMESTAMP, NUMBER, BALANCE, GAS not before a call).", fix: "Validate without the named opcode, or send the operation to a private bundler that allows it." },
  BUNDLER_STORAGE_ACCESS_BANNED: { id: "SVC-16023", status: 422, category: "domain", retryable: false, message: "The UserOperation's validation accesses storage it may not.", why: "ERC-7562 lets validation access the account's own storage and storage associated with it (slots keyed by its address) in other contracts; a factory or paymaster only beyond that when staked (its own storage, storage associated with it, reads elsewhere). The message names the rule (STO-0xx).", fix: "Validate within the named rule's storage, stake the factory or paymaster at the EntryPoint, or send the operation to a bundler in unsafe mode." },
  BUNDLER_TIME_RANGE_INVALID: { id: "SVC-16013", status: 422, category: "domain", retryable: false, message: "The UserOperation is outside its valid time range.", why: "The account or paymaster made it valid only until a time that has passed (or is too near), or only after a time to come.", fix: "Send it within its validity window, or sign one with a wider window." },
  BUNDLER_THROTTLED: { id: "SVC-16014", status: 429, category: "domain", retryable: true, message: "Too many pending UserOperations from this sender.", why: "An unstaked sender may have at most 4 operations waiting in the mempool.", fix: "Wait for the pending operations to be included." },
  BUNDLER_STAKE_TOO_LOW: { id: "SVC-16015", status: 422, category: "domain", retryable: false, message: "The paymaster's or factory's stake is too low for what the UserOperation asks.", why: "ERC-7562 lets only a staked paymaster (at least 0.1 ETH, one day's unstake delay) return a context for postOp, and an unstaked paymaster or factory have at most 10 operations (plus its inclusion record) in the mempool.", fix: "Stake the entity at the EntryPoint (addStake), return an empty context, or wait for its operations to be included." },
  BUNDLER_AGGREGATOR_UNSUPPORTED: { id: "SVC-16016", status: 422, category: "domain", retryable: false, message: "Signature aggregators are not supported.", why: "The account's validation named an aggregator; this bundler bundles unaggregated operations only.", fix: "Send an operation validated by the account itself." },
  BUNDLER_SIGNATURE_INVALID: { id: "SVC-16017", status: 422, category: "domain", retryable: false, message: "The UserOperation's signature is invalid.", why: "The account (or the paymaster) reported a signature failure in validation.", fix: "Sign the operation's hash (eth_getUserOperationByHash's hash for this EntryPoint and chain) with the account's key." },
  BUNDLER_PAYMASTER_DEPOSIT_TOO_LOW: { id: "SVC-16018", status: 422, category: "domain", retryable: false, message: "The paymaster's deposit is too low.", why: "The paymaster's deposit at the EntryPoint does not cover this operation's maximum cost.", fix: "Top up the paymaster's deposit (EntryPoint.depositTo) or lower the gas limits." },
  BUNDLER_METHOD_NOT_PERMITTED: { id: "SVC-16020", status: 403, category: "permission", retryable: false, message: "Your roles do not allow this bundler method.", why: "eth_sendUserOperation needs bundler:send (every role but auditor); debug_bundler_ methods need bundler:debug (owner, admin).", fix: "Call it with a key of a user holding one of the roles named in details.requiredRoles." },
  BUNDLER_SPONSORSHIP_LIMIT_EXCEEDED: { id: "SVC-16021", status: 429, category: "domain", retryable: true, message: "The wallet's daily sponsorship limit is reached.", why: "A sender may have at most BUNDLER_SPONSORED_OPERATIONS_PER_DAY operations, worth at most BUNDLER_SPONSORED_WEI_PER_DAY at their maximum cost, paid by a paymaster in any 24 hours.", fix: "Wait until older operations leave the 24-hour window (details.retryAfterSeconds), pay the gas from the wallet itself, or ask an operator to raise the limits." },
  BUNDLER_BATCH_TOO_LARGE: { id: "SVC-16022", status: 413, category: "client", retryable: false, message: "The JSON-RPC batch has too many requests.", why: "A batch may hold at most BUNDLER_MAX_BATCH_SIZE requests.", fix: "Split the batch into smaller ones (details.maxBatchSize)." },
  BUNDLER_ENTITY_BANNED: { id: "SVC-16030", status: 403, category: "domain", retryable: false, message: "The UserOperation's paymaster or factory is banned.", why: "ERC-7562 reputation: far fewer of the entity's operations were included on chain than this bundler saw (or one failed its bundle), so it is banned until its counters decay.", fix: "Use another paymaster or factory; the ban lifts as its counters decay (23/24 an hour)." },
  BUNDLER_ENTITY_THROTTLED: { id: "SVC-16031", status: 429, category: "domain", retryable: true, message: "The UserOperation's paymaster or factory is throttled.", why: "ERC-7562 reputation: too few of the entity's operations were included, so the mempool holds at most 4 of its operations at a time.", fix: "Wait for its operations to be included, or use another paymaster or factory." },
  BUNDLER_UNAVAILABLE: { id: "SVC-16019", status: 503, category: "dependency", retryable: true, message: "The bundler has no EntryPoint on this chain.", why: "The deployment manifest names no EntryPoint and the canonical v0.8 one is not on the chain.", fix: "Start the platform with its own deployment, or give a manifest with entryPoint." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}

export type BundlerErrorCode = keyof typeof ERRORS;

/** Each code's JSON-RPC error code. */
export const JSON_RPC_CODES: Record<BundlerErrorCode, number> = {
  BUNDLER_PARSE_ERROR: -32700,
  BUNDLER_INVALID_REQUEST: -32600,
  BUNDLER_METHOD_NOT_FOUND: -32601,
  BUNDLER_INVALID_PARAMS: -32602,
  BUNDLER_INTERNAL_ERROR: -32603,
  BUNDLER_DEPENDENCY_UNAVAILABLE: -32603,
  BUNDLER_UNAVAILABLE: -32603,
  BUNDLER_USER_OPERATION_REJECTED: -32500,
  BUNDLER_PAYMASTER_REJECTED: -32501,
  BUNDLER_OPCODE_BANNED: -32502,
  BUNDLER_STORAGE_ACCESS_BANNED: -32502,
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
  // ERC-7769: "banned or throttled paymaster or aggregator" (ERC-7562 reputation).
  BUNDLER_ENTITY_BANNED: -32504,
  BUNDLER_ENTITY_THROTTLED: -32504,
};
