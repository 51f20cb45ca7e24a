// The public error registry: every code the API can answer with, its stable id, status and category. The host core
// declares the codes its own mechanics answer with (http, auth, collections, mutations, chain context, custody);
// each plugin declares its own (`definePlugin({ errors })`), registered at start (host/plugin-host.ts).
// Ids the spec pairs explicitly are kept as given; the others are ours and never reused.
import { createNameRegistry } from "../name-registry.ts";

export type ErrorCategory = "client" | "auth" | "permission" | "domain" | "dependency" | "operational" | "unknown";

export interface ErrorDefinition {
  id: string;
  status: number;
  /** Other statuses the same code is answered with (CONTRACT_ERROR depends on where the contract refused). */
  alsoStatuses?: readonly number[];
  category: ErrorCategory;
  retryable: boolean;
  message: string;
  why: string;
  fix: string;
}

/** One registry entry, in the table order below. */
export const def = (
  id: string,
  status: number,
  category: ErrorCategory,
  retryable: boolean,
  message: string,
  why: string,
  fix: string,
  alsoStatuses?: readonly number[],
): ErrorDefinition => ({
  id,
  status,
  category,
  retryable,
  message,
  why,
  fix,
  ...(alsoStatuses ? { alsoStatuses } : {}),
});

// One code a line: id, status, category, retryable, message, why, fix (and other statuses where a code has several).
// biome-ignore format: the registry reads best as a table
export const CORE_ERRORS = {
  BAD_REQUEST: def("SVC-0001", 400, "client", false, "The request is invalid.", "A parameter, header or body field failed validation.", "Correct the named field and send the request again."),
  UNAUTHORIZED: def("SVC-0002", 401, "auth", false, "Authentication is required.", "The request carried no valid credential: the API key is missing, unknown, revoked or expired.", "Send a valid key in the X-Api-Key header, or sign in again."),
  FORBIDDEN: def("SVC-0003", 403, "permission", false, "You may not do this.", "Your role does not allow this operation.", "Ask an administrator of the organisation for the role."),
  NOT_FOUND: def("SVC-0004", 404, "client", false, "Not found.", "The resource does not exist or is outside your organisation.", "Check the identifier and the organisation you are working in."),
  CONFLICT: def("SVC-0005", 409, "domain", false, "The request conflicts with the current state.", "The resource is not in a state that allows this change.", "Read the resource, then decide whether to retry."),
  METHOD_NOT_ALLOWED: def("SVC-0007", 405, "client", false, "Method not allowed.", "This path does not accept that HTTP method.", "Use a method the route documents."),
  PAYLOAD_TOO_LARGE: def("SVC-0008", 413, "client", false, "The request body is too large.", "The body exceeds the size the API accepts.", "Send a smaller body."),
  UNSUPPORTED_MEDIA_TYPE: def("SVC-0009", 415, "client", false, "The request body must be JSON.", "The Content-Type is not application/json or the body is not valid JSON.", "Send a JSON body with Content-Type: application/json."),
  REQUEST_TIMEOUT: def("SVC-0020", 408, "client", false, "The request did not arrive in time.", "The request's head and body did not arrive within the server's request timeout (e.g. a body shorter than its Content-Length).", "Send the whole request, with a Content-Length that matches the body."),
  REQUEST_HEADER_FIELDS_TOO_LARGE: def("SVC-0021", 431, "client", false, "The request's head is too large.", "The request line and headers exceed 16 KiB.", "Send a shorter URL or fewer and smaller headers."),
  ACTIVE_ORGANIZATION_REQUIRED: def("SVC-0034", 403, "auth", false, "An active organisation is required.", "The credential is not bound to an organisation you belong to.", "Pin an organisation you belong to with x-organization-id, or use a key of that organisation."),
  SERVICE_UNAVAILABLE: def("SVC-0083", 503, "dependency", true, "The service is temporarily unavailable.", "A component the request needs is not ready.", "Retry with exponential backoff."),
  INTERNAL_SERVER_ERROR: def("SVC-0084", 500, "unknown", true, "An unexpected error occurred.", "The server failed in a way it did not anticipate.", "Retry with exponential backoff; quote the requestId when contacting support."),
  API_KEY_READ_ONLY: def("SVC-12130", 403, "auth", false, "This API key is read-only.", "A key with scope read may only send GET, HEAD and OPTIONS requests.", "Use a read-write key for writes."),
  API_KEY_NOT_SUPPORTED_ON_RPC: def("SVC-12131", 403, "auth", false, "API keys are not accepted on the RPC route.", "The RPC route authenticates sessions only.", "Call the REST routes with the key, or sign in."),
  API_KEY_SCOPE_EXCEEDED: def("SVC-12140", 403, "permission", false, "A key cannot create a key that outlives or outranks it.", "An API key may only create keys of its own scope or less and expiring no later than itself; a key with an expiry cannot create one without.", "Send a scope and an expiresAt within the calling key's (see GET /api/v2/api-keys), or sign in to create it."),
  "auth.apikey.THROTTLED": def("SVC-12136", 429, "auth", true, "Too many requests for this API key.", "The key used up its request allowance for the current window.", "Wait for the Retry-After interval, then retry."),
  "auth.signin.THROTTLED": def("SVC-12137", 429, "auth", true, "Too many failed sign-in attempts.", "After repeated failures for this account or from your address, each further attempt must wait; the wait doubles with every failure, and a success resets it.", "Wait for the Retry-After interval, then sign in with the right email, password or code."),
  "auth.credential.THROTTLED": def("SVC-12138", 429, "auth", true, "Too many failed credentials from your address.", "Requests from your address sent unknown, revoked or expired API keys or invalid session cookies too often in the current window.", "Wait for the Retry-After interval, and fix the credential your client sends."),
  CROSS_SITE_REQUEST_REFUSED: def("SVC-12160", 403, "auth", false, "Cross-site request refused.", "A write authenticated by the session cookie (or a sign-in from a browser) came without an Origin header or from a page of another origin than the API's own, PUBLIC_BASE_URL's or TRUSTED_ORIGINS (cross-site request forgery).", "Send the request from a page served by the API's origin, add the page's origin to TRUSTED_ORIGINS, or use an API key (X-Api-Key) from a server."),
  SESSION_WRITE_JSON_REQUIRED: def("SVC-12161", 403, "auth", false, "A session write must send Content-Type: application/json.", "A write authenticated by the session cookie carried another Content-Type or none; JSON is what a cross-site form cannot send.", "Send Content-Type: application/json on every POST, PUT, PATCH and DELETE made with the session cookie, even one without a body."),
  AUTH_STORE_UNAVAILABLE: def("SVC-12258", 503, "dependency", true, "Authentication is temporarily unavailable.", "The credential store could not be reached.", "Retry with exponential backoff."),
  CHAIN_ID_HEADER_INVALID: def("SVC-9521", 400, "client", false, "X-Chain-Id is invalid.", "X-Chain-Id must be a positive decimal chain id.", "Send a decimal chain id, or omit the header to use the organisation's default network."),
  CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION: def("SVC-9522", 400, "client", false, "This chain is not available to the organisation.", "The platform serves no such chain for your organisation.", "Select one of the organisation's networks with X-Chain-Id."),
  REQUEST_CHAIN_SYSTEM_REQUIRED: def("SVC-9524", 404, "domain", false, "No system is deployed for this organisation on this chain.", "The organisation has no platform system on the selected chain.", "Deploy the organisation's system on this chain, or select another chain with X-Chain-Id."),
  CHAIN_NOT_READY: def("SVC-9086", 409, "domain", true, "The organisation's system on this chain is not ready.", "The system deployment on this chain has not completed.", "Retry once chainStatus is ready."),
  REQUEST_DEADLINE_EXCEEDED: def("SVC-9532", 504, "operational", false, "The request deadline passed.", "The operation did not finish in time but may still be running.", "Read the operation's status before sending it again; wait Retry-After first."),
  COLLECTION_FILTER_IN_LIST_TOO_LARGE: def("SVC-9273", 400, "client", false, "The filter list is too large.", "inArray and notInArray take at most 100 members.", "Split the query, or narrow it with other filters."),
  COLLECTION_PAGE_LIMIT_OUT_OF_RANGE: def("SVC-9274", 400, "client", false, "page[limit] is out of range.", "page[limit] must be an integer from 1 to 200.", "Send page[limit] between 1 and 200."),
  COLLECTION_PAGE_OFFSET_OUT_OF_RANGE: def("SVC-9275", 400, "client", false, "page[offset] is out of range.", "page[offset] must be an integer from 0 to 10000.", "Send page[offset] between 0 and 10000, or narrow the query with filters."),
  COLLECTION_SORT_MULTI_FIELD_UNSUPPORTED: def("SVC-9276", 400, "client", false, "Sort by one field only.", "sort takes exactly one field; a comma-separated list was sent.", "Send one field, prefixed with - for descending."),
  COLLECTION_SORT_FIELD_UNKNOWN: def("SVC-9277", 400, "client", false, "This field cannot be sorted on.", "The sort field is not one of the route's sortable fields.", "Sort by one of the fields listed in sortableFields."),
  COLLECTION_FILTER_FIELD_UNKNOWN: def("SVC-9278", 400, "client", false, "Unknown filter field.", "The filter names a field the route does not filter on.", "Filter on one of the fields listed in filterableFields."),
  COLLECTION_FILTER_OPERATOR_UNKNOWN: def("SVC-9279", 400, "client", false, "Unsupported filter operator.", "The operator is unknown or not supported by this field.", "Use one of the operators listed in supportedOperators."),
  CONTRACT_ERROR: def("SVC-1000", 422, "domain", false, "The contract refused the operation.", "The chain call reverted.", "Read contractError and resolve its cause before retrying.", [403, 404, 409]),
  USER_NOT_AUTHORIZED: def("SVC-0006", 403, "permission", false, "A required role is missing.", "Your role does not allow this operation.", "Ask an administrator for a role named in requiredRoles."),
  RESOURCE_ALREADY_EXISTS: def("SVC-0012", 409, "domain", false, "The resource already exists.", "A resource with the same identity exists.", "Use the existing resource, or choose another identity."),
  INPUT_VALIDATION_FAILED: def("SVC-0013", 422, "client", false, "The input is not valid for this operation.", "The request is well-formed but its values cannot be processed.", "Correct the values the message names."),
  HSM_MOFN_QUORUM_EXPIRED: def("SVC-0016", 408, "dependency", true, "The custody partition's quorum expired.", "The M-of-N activation of the custody partition lapsed.", "Activate the custody partition, then resubmit."),
  HSM_MOFN_QUORUM_CLASSIFICATION_FAILED: def("SVC-0017", 409, "dependency", false, "The custody partition's state could not be classified.", "The quorum state of the custody partition is unknown.", "Inspect the partition state before retrying."),
  INDEXER_REINDEXING: def("SVC-0018", 503, "dependency", true, "The index is being rebuilt.", "The Ledger Index is re-indexing and cannot answer this read yet.", "Retry after the Retry-After interval."),
  CONFIRMATION_TIMEOUT: def("SVC-0019", 504, "operational", false, "Confirmation timed out.", "The chain did not confirm the transaction in time; it may still confirm.", "Read the transaction status or receipt before retrying."),
  SESSION_EVIDENCE_INVALID: def("SVC-9188", 401, "auth", false, "The session is not valid.", "The session cookie is unknown, expired or revoked.", "Sign in again."),
  LOGIN_2FA_REQUIRED: def("SVC-9189", 403, "auth", false, "Two-factor verification is required.", "The sign-in is waiting for its second factor.", "Verify the one-time code with POST /api/v2/auth/two-factor, then retry."),
  SESSION_RESOLUTION_FAILED: def("SVC-9193", 503, "dependency", true, "The session could not be resolved.", "The session store could not be reached.", "Retry with exponential backoff."),
  PARTICIPANT_NOT_FOUND: def("SVC-0524", 404, "client", false, "Participant not found.", "The participant id does not resolve in the active organisation.", "Use a participant id of your organisation."),
  REQUEST_PARTICIPANT_FORBIDDEN: def("SVC-9194", 403, "permission", false, "You may not act as this participant.", "X-Participant names a participant you cannot act for in this organisation.", "Omit X-Participant, or name yourself or a member you administer."),
  INVALID_REQUEST_EXECUTOR: def("SVC-9195", 400, "client", false, "X-Executor is invalid.", "X-Executor must be eoa or smart-wallet.", "Send eoa or smart-wallet, or omit the header."),
  X_EXECUTOR_AA_DISABLED_FOR_ORG: def("SVC-9196", 403, "permission", false, "Smart-wallet execution is disabled for this organisation.", "The organisation's executor policy does not allow smart wallets.", "Use X-Executor: eoa, or ask an administrator to enable account abstraction."),
  X_EXECUTOR_AA_DISABLED_GLOBALLY: def("SVC-9197", 403, "permission", false, "Smart-wallet execution is disabled on this platform.", "Account abstraction is not enabled on this deployment.", "Use X-Executor: eoa."),
  REQUEST_EXECUTOR_UNAVAILABLE: def("SVC-9198", 409, "domain", false, "The requested executor is not available.", "No wallet of that kind exists for the acting participant on this chain.", "Provision the wallet, or choose another executor."),
  "svc.runtime.INVALID_REQUEST_CUSTODY_ACCOUNT": def("SVC-9199", 400, "client", false, "The custody account selection is invalid.", "accountWalletId, smartWalletAddress and forceEoa cannot be combined like this.", "Send at most one wallet selection."),
  CUSTODY_ACCOUNT_SELECTION_INVALID: def("SVC-9200", 409, "domain", false, "The custody account cannot be used.", "The selected custody account does not belong to the acting participant.", "Select one of your own custody accounts."),
  PRIMARY_CUSTODY_ACCOUNT_REQUIRED: def("SVC-9201", 409, "domain", false, "A primary custody account is required.", "The acting participant has no primary custody account.", "Provision a custody account first."),
  REQUEST_CUSTODY_ACCOUNT_UNAVAILABLE: def("SVC-9202", 409, "dependency", true, "The custody account is unavailable.", "The custody account cannot sign right now.", "Retry later, or select another account."),
  "svc.runtime.REQUEST_CHAIN_LOOKUP_FAILED": def("SVC-9203", 503, "dependency", true, "The chain context could not be resolved.", "The organisation's networks could not be read.", "Retry with exponential backoff."),
  WALLET_VERIFICATION_REQUIRED: def("SVC-9204", 400, "auth", false, "Wallet verification is required.", "Chain writes made with a session need walletVerification.", "Send walletVerification with your PIN code."),
  WALLET_VERIFICATION_FAILED: def("SVC-9205", 403, "auth", false, "Wallet verification failed.", "The verification code does not match.", "Send the correct code."),
  CONTRACT_ROLE_MISSING: def("SVC-1107", 403, "permission", false, "The signing wallet lacks the contract role.", "The contract's access control refused the signer: it does not hold requiredRole.", "Grant requiredRole to the signing wallet on the contract, or sign with a wallet that holds it."),
  ERC20_BALANCE_INSUFFICIENT: def("SVC-1108", 422, "domain", false, "The signing wallet's balance does not cover the amount.", "The write pulls an amount of an ERC-20 asset from the signing wallet, which holds less (details: asset, account, balance, required).", "Fund the signing wallet with the asset, or send a smaller amount."),
  ERC20_ALLOWANCE_INSUFFICIENT: def("SVC-1109", 422, "domain", false, "The signing wallet's allowance does not cover the amount.", "The write's contract (details.spender) pulls the amount with transferFrom, and the signing wallet allows it less (details: asset, account, spender, allowance, required).", "Grant the spender an allowance of at least details.required first: POST /api/v2/tokens/{tokenAddress}/approvals {spender, amount} (a registered external token: POST /api/v2/external-tokens/{tokenAddress}/approvals)."),
  IDEMPOTENCY_KEY_EXPIRED: def("SVC-9540", 409, "domain", false, "This idempotency key is older than 24 hours.", "The key was first used more than 24 hours ago; its request is no longer replayable.", "Confirm the earlier request did not already do the work (read its status), then send with a new key."),
  IDEMPOTENCY_REQUEST_CANCELLED: def("SVC-9541", 409, "domain", false, "The request this key is attached to was cancelled.", "The first request with this key was cancelled.", "Confirm nothing was created, then send with a new key."),
  IDEMPOTENCY_WALLET_SELECTION_MISMATCH: def("SVC-9542", 409, "domain", false, "This key was used with another wallet selection.", "accountWalletId, smartWalletAddress or forceEoa differ from the first request with this key.", "Keep the original wallet selection, or use a new key for a different one."),
  IDEMPOTENCY_KEY_REUSED: def("SVC-9543", 409, "domain", false, "This key belongs to a different operation.", "The first request with this key was another instruction or executor mode.", "Use a new key for a different operation."),
  IDEMPOTENCY_REQUEST_UNRECOVERABLE: def("SVC-9544", 409, "operational", false, "The request behind this key cannot be recovered.", "The first request with this key needs manual intervention.", "Stop retrying and contact support with the transaction id."),
  IDEMPOTENCY_REQUEST_IN_PROGRESS: def("SVC-9546", 409, "domain", true, "The first request with this key is still running.", "Another request with this Idempotency-Key has not answered yet.", "Wait a moment, then send the same request with the same key to get its answer."),
} as const satisfies Record<string, ErrorDefinition>;

/** A code the core or a registered plugin declares (string-typed; scripts/declared-names.test.ts checks the literals). */
export type ErrorCode = string;

const registry = createNameRegistry<ErrorDefinition>("error code", CORE_ERRORS);

/** Adds the composed plugins' codes (once per process, by registerPlugins). */
export const registerErrors = registry.register;

/** A code's definition; an unregistered code throws a plain Error naming it. */
export const errorDefinition = registry.get;

/** Every registered code: the core's, then the plugins'. */
export const registeredErrors = registry.entries;
