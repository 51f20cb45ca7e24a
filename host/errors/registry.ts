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

// One code a line, each field named (a definition missing one, or with an unknown one, fails the typecheck).
// biome-ignore format: the registry reads best as a table
export const CORE_ERRORS = {
  BAD_REQUEST: { id: "SVC-0001", status: 400, category: "client", retryable: false, message: "The request is invalid.", why: "A parameter, header or body field failed validation.", fix: "Correct the named field and send the request again." },
  UNAUTHORIZED: { id: "SVC-0002", status: 401, category: "auth", retryable: false, message: "Authentication is required.", why: "The request carried no valid credential: the API key is missing, unknown, revoked or expired.", fix: "Send a valid key in the X-Api-Key header, or sign in again." },
  FORBIDDEN: { id: "SVC-0003", status: 403, category: "permission", retryable: false, message: "You may not do this.", why: "Your role does not allow this operation.", fix: "Ask an administrator of the organisation for the role." },
  NOT_FOUND: { id: "SVC-0004", status: 404, category: "client", retryable: false, message: "Not found.", why: "The resource does not exist or is outside your organisation.", fix: "Check the identifier and the organisation you are working in." },
  CONFLICT: { id: "SVC-0005", status: 409, category: "domain", retryable: false, message: "The request conflicts with the current state.", why: "The resource is not in a state that allows this change.", fix: "Read the resource, then decide whether to retry." },
  METHOD_NOT_ALLOWED: { id: "SVC-0007", status: 405, category: "client", retryable: false, message: "Method not allowed.", why: "This path does not accept that HTTP method.", fix: "Use a method the route documents." },
  PAYLOAD_TOO_LARGE: { id: "SVC-0008", status: 413, category: "client", retryable: false, message: "The request body is too large.", why: "The body exceeds the size the API accepts.", fix: "Send a smaller body." },
  UNSUPPORTED_MEDIA_TYPE: { id: "SVC-0009", status: 415, category: "client", retryable: false, message: "The request body must be JSON.", why: "The Content-Type is not application/json or the body is not valid JSON.", fix: "Send a JSON body with Content-Type: application/json." },
  REQUEST_TIMEOUT: { id: "SVC-0020", status: 408, category: "client", retryable: false, message: "The request did not arrive in time.", why: "The request's head and body did not arrive within the server's request timeout (e.g. a body shorter than its Content-Length).", fix: "Send the whole request, with a Content-Length that matches the body." },
  REQUEST_HEADER_FIELDS_TOO_LARGE: { id: "SVC-0021", status: 431, category: "client", retryable: false, message: "The request's head is too large.", why: "The request line and headers exceed 16 KiB.", fix: "Send a shorter URL or fewer and smaller headers." },
  ACTIVE_ORGANIZATION_REQUIRED: { id: "SVC-0034", status: 403, category: "auth", retryable: false, message: "An active organisation is required.", why: "The credential is not bound to an organisation you belong to.", fix: "Pin an organisation you belong to with x-organization-id, or use a key of that organisation." },
  NOT_ONBOARDED: { id: "SVC-0010", status: 403, category: "permission", retryable: false, message: "Onboarding is incomplete.", why: "The user has not completed what the organisation requires before writing (missingStep names it).", fix: "Complete the missing step, then retry." },
  SERVICE_UNAVAILABLE: { id: "SVC-0083", status: 503, category: "dependency", retryable: true, message: "The service is temporarily unavailable.", why: "A component the request needs is not ready.", fix: "Retry with exponential backoff." },
  INTERNAL_SERVER_ERROR: { id: "SVC-0084", status: 500, category: "unknown", retryable: true, message: "An unexpected error occurred.", why: "The server failed in a way it did not anticipate.", fix: "Retry with exponential backoff; quote the requestId when contacting support." },
  API_KEY_READ_ONLY: { id: "SVC-12130", status: 403, category: "auth", retryable: false, message: "This API key is read-only.", why: "A key with scope read may only send GET, HEAD and OPTIONS requests.", fix: "Use a read-write key for writes." },
  API_KEY_NOT_SUPPORTED_ON_RPC: { id: "SVC-12131", status: 403, category: "auth", retryable: false, message: "API keys are not accepted on the RPC route.", why: "The RPC route authenticates sessions only.", fix: "Call the REST routes with the key, or sign in." },
  API_KEY_SCOPE_EXCEEDED: { id: "SVC-12140", status: 403, category: "permission", retryable: false, message: "A key cannot create a key that outlives or outranks it.", why: "An API key may only create keys of its own scope or less and expiring no later than itself; a key with an expiry cannot create one without.", fix: "Send a scope and an expiresAt within the calling key's (see GET /api/v2/api-keys), or sign in to create it." },
  "auth.apikey.THROTTLED": { id: "SVC-12136", status: 429, category: "auth", retryable: true, message: "Too many requests for this API key.", why: "The key used up its request allowance for the current window.", fix: "Wait for the Retry-After interval, then retry." },
  "auth.signin.THROTTLED": { id: "SVC-12137", status: 429, category: "auth", retryable: true, message: "Too many failed sign-in attempts.", why: "After repeated failures for this account or from your address, each further attempt must wait; the wait doubles with every failure, and a success resets it.", fix: "Wait for the Retry-After interval, then sign in with the right email, password or code." },
  "auth.credential.THROTTLED": { id: "SVC-12138", status: 429, category: "auth", retryable: true, message: "Too many failed credentials from your address.", why: "Requests from your address sent unknown, revoked or expired API keys or invalid session cookies too often in the current window.", fix: "Wait for the Retry-After interval, and fix the credential your client sends." },
  CROSS_SITE_REQUEST_REFUSED: { id: "SVC-12160", status: 403, category: "auth", retryable: false, message: "Cross-site request refused.", why: "A write authenticated by the session cookie (or a sign-in from a browser) came without an Origin header or from a page of another origin than the API's own, PUBLIC_BASE_URL's or TRUSTED_ORIGINS (cross-site request forgery).", fix: "Send the request from a page served by the API's origin, add the page's origin to TRUSTED_ORIGINS, or use an API key (X-Api-Key) from a server." },
  SESSION_WRITE_JSON_REQUIRED: { id: "SVC-12161", status: 403, category: "auth", retryable: false, message: "A session write must send Content-Type: application/json.", why: "A write authenticated by the session cookie carried another Content-Type or none; JSON is what a cross-site form cannot send.", fix: "Send Content-Type: application/json on every POST, PUT, PATCH and DELETE made with the session cookie, even one without a body." },
  AUTH_STORE_UNAVAILABLE: { id: "SVC-12258", status: 503, category: "dependency", retryable: true, message: "Authentication is temporarily unavailable.", why: "The credential store could not be reached.", fix: "Retry with exponential backoff." },
  CHAIN_ID_HEADER_INVALID: { id: "SVC-9521", status: 400, category: "client", retryable: false, message: "X-Chain-Id is invalid.", why: "X-Chain-Id must be a positive decimal chain id.", fix: "Send a decimal chain id, or omit the header to use the organisation's default network." },
  CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION: { id: "SVC-9522", status: 400, category: "client", retryable: false, message: "This chain is not available to the organisation.", why: "The platform serves no such chain for your organisation.", fix: "Select one of the organisation's networks with X-Chain-Id." },
  REQUEST_CHAIN_SYSTEM_REQUIRED: { id: "SVC-9524", status: 404, category: "domain", retryable: false, message: "No system is deployed for this organisation on this chain.", why: "The organisation has no platform system on the selected chain.", fix: "Deploy the organisation's system on this chain, or select another chain with X-Chain-Id." },
  CHAIN_NOT_READY: { id: "SVC-9086", status: 409, category: "domain", retryable: true, message: "The organisation's system on this chain is not ready.", why: "The system deployment on this chain has not completed.", fix: "Retry once chainStatus is ready." },
  SYSTEM_NOT_CREATED: { id: "SVC-0011", status: 403, category: "domain", retryable: false, message: "The platform is not initialised.", why: "No system was ever requested for this organisation, on any chain.", fix: "Deploy the organisation's system (an operator, or POST /api/v2/organizations repeated with its Idempotency-Key resumes a failed deployment), then retry." },
  REQUEST_DEADLINE_EXCEEDED: { id: "SVC-9532", status: 504, category: "operational", retryable: false, message: "The request deadline passed.", why: "The operation did not finish in time but may still be running.", fix: "Read the operation's status before sending it again; wait Retry-After first." },
  COLLECTION_FILTER_IN_LIST_TOO_LARGE: { id: "SVC-9273", status: 400, category: "client", retryable: false, message: "The filter list is too large.", why: "inArray and notInArray take at most 100 members.", fix: "Split the query, or narrow it with other filters." },
  COLLECTION_PAGE_LIMIT_OUT_OF_RANGE: { id: "SVC-9274", status: 400, category: "client", retryable: false, message: "page[limit] is out of range.", why: "page[limit] must be an integer from 1 to 200.", fix: "Send page[limit] between 1 and 200." },
  COLLECTION_PAGE_OFFSET_OUT_OF_RANGE: { id: "SVC-9275", status: 400, category: "client", retryable: false, message: "page[offset] is out of range.", why: "page[offset] must be an integer from 0 to 10000.", fix: "Send page[offset] between 0 and 10000, or narrow the query with filters." },
  COLLECTION_SORT_MULTI_FIELD_UNSUPPORTED: { id: "SVC-9276", status: 400, category: "client", retryable: false, message: "Sort by one field only.", why: "sort takes exactly one field; a comma-separated list was sent.", fix: "Send one field, prefixed with - for descending." },
  COLLECTION_SORT_FIELD_UNKNOWN: { id: "SVC-9277", status: 400, category: "client", retryable: false, message: "This field cannot be sorted on.", why: "The sort field is not one of the route's sortable fields.", fix: "Sort by one of the fields listed in sortableFields." },
  COLLECTION_FILTER_FIELD_UNKNOWN: { id: "SVC-9278", status: 400, category: "client", retryable: false, message: "Unknown filter field.", why: "The filter names a field the route does not filter on.", fix: "Filter on one of the fields listed in filterableFields." },
  COLLECTION_FILTER_OPERATOR_UNKNOWN: { id: "SVC-9279", status: 400, category: "client", retryable: false, message: "Unsupported filter operator.", why: "The operator is unknown or not supported by this field.", fix: "Use one of the operators listed in supportedOperators." },
  CONTRACT_ERROR: { id: "SVC-1000", status: 422, category: "domain", retryable: false, message: "The contract refused the operation.", why: "The chain call reverted.", fix: "Read contractError and resolve its cause before retrying.", alsoStatuses: [403, 404, 409] },
  USER_NOT_AUTHORIZED: { id: "SVC-0006", status: 403, category: "permission", retryable: false, message: "A required role is missing.", why: "Your role does not allow this operation.", fix: "Ask an administrator for a role named in requiredRoles." },
  RESOURCE_ALREADY_EXISTS: { id: "SVC-0012", status: 409, category: "domain", retryable: false, message: "The resource already exists.", why: "A resource with the same identity exists.", fix: "Use the existing resource, or choose another identity." },
  INPUT_VALIDATION_FAILED: { id: "SVC-0013", status: 422, category: "client", retryable: false, message: "The input is not valid for this operation.", why: "The request is well-formed but its values cannot be processed.", fix: "Correct the values the message names." },
  HSM_MOFN_QUORUM_EXPIRED: { id: "SVC-0016", status: 408, category: "dependency", retryable: true, message: "The custody partition's quorum expired.", why: "The M-of-N activation of the custody partition lapsed.", fix: "Activate the custody partition, then resubmit." },
  HSM_MOFN_QUORUM_CLASSIFICATION_FAILED: { id: "SVC-0017", status: 409, category: "dependency", retryable: false, message: "The custody partition's state could not be classified.", why: "The quorum state of the custody partition is unknown.", fix: "Inspect the partition state before retrying." },
  INDEXER_REINDEXING: { id: "SVC-0018", status: 503, category: "dependency", retryable: true, message: "The index is being rebuilt.", why: "The Ledger Index is re-indexing or catching up with the chain after a start and cannot answer this request (or check this write) yet.", fix: "Retry after the Retry-After interval (data.retryAfterSeconds)." },
  CONFIRMATION_TIMEOUT: { id: "SVC-0019", status: 504, category: "operational", retryable: false, message: "Confirmation timed out.", why: "The chain did not confirm the transaction in time; it may still confirm.", fix: "Read the transaction status or receipt before retrying." },
  SESSION_EVIDENCE_INVALID: { id: "SVC-9188", status: 401, category: "auth", retryable: false, message: "The session is not valid.", why: "The session cookie is unknown, expired or revoked.", fix: "Sign in again." },
  LOGIN_2FA_REQUIRED: { id: "SVC-9189", status: 403, category: "auth", retryable: false, message: "Two-factor verification is required.", why: "The sign-in is waiting for its second factor.", fix: "Verify the one-time code with POST /api/v2/auth/two-factor, then retry." },
  SESSION_RESOLUTION_FAILED: { id: "SVC-9193", status: 503, category: "dependency", retryable: true, message: "The session could not be resolved.", why: "The session store could not be reached.", fix: "Retry with exponential backoff." },
  PARTICIPANT_NOT_FOUND: { id: "SVC-0524", status: 404, category: "client", retryable: false, message: "Participant not found.", why: "The participant id does not resolve in the active organisation.", fix: "Use a participant id of your organisation." },
  REQUEST_PARTICIPANT_FORBIDDEN: { id: "SVC-9194", status: 403, category: "permission", retryable: false, message: "You may not act as this participant.", why: "X-Participant names a participant you cannot act for in this organisation.", fix: "Omit X-Participant, or name yourself or a member you administer." },
  INVALID_REQUEST_EXECUTOR: { id: "SVC-9195", status: 400, category: "client", retryable: false, message: "X-Executor is invalid.", why: "X-Executor must be eoa or smart-wallet.", fix: "Send eoa or smart-wallet, or omit the header." },
  X_EXECUTOR_AA_DISABLED_FOR_ORG: { id: "SVC-9196", status: 403, category: "permission", retryable: false, message: "Smart-wallet execution is disabled for this organisation.", why: "The organisation's executor policy does not allow smart wallets.", fix: "Use X-Executor: eoa, or ask an administrator to enable account abstraction." },
  X_EXECUTOR_AA_DISABLED_GLOBALLY: { id: "SVC-9197", status: 403, category: "permission", retryable: false, message: "Smart-wallet execution is disabled on this platform.", why: "Account abstraction is not enabled on this deployment.", fix: "Use X-Executor: eoa." },
  REQUEST_EXECUTOR_UNAVAILABLE: { id: "SVC-9198", status: 409, category: "domain", retryable: false, message: "The requested executor is not available.", why: "No wallet of that kind exists for the acting participant on this chain.", fix: "Provision the wallet, or choose another executor." },
  "svc.runtime.INVALID_REQUEST_CUSTODY_ACCOUNT": { id: "SVC-9199", status: 400, category: "client", retryable: false, message: "The custody account selection is invalid.", why: "accountWalletId, smartWalletAddress and forceEoa cannot be combined like this.", fix: "Send at most one wallet selection." },
  CUSTODY_ACCOUNT_SELECTION_INVALID: { id: "SVC-9200", status: 409, category: "domain", retryable: false, message: "The custody account cannot be used.", why: "The selected custody account does not belong to the acting participant.", fix: "Select one of your own custody accounts." },
  PRIMARY_CUSTODY_ACCOUNT_REQUIRED: { id: "SVC-9201", status: 409, category: "domain", retryable: false, message: "A primary custody account is required.", why: "The acting participant has no primary custody account.", fix: "Provision a custody account first." },
  REQUEST_CUSTODY_ACCOUNT_UNAVAILABLE: { id: "SVC-9202", status: 409, category: "dependency", retryable: true, message: "The custody account is unavailable.", why: "The custody account cannot sign right now.", fix: "Retry later, or select another account." },
  "svc.runtime.REQUEST_CHAIN_LOOKUP_FAILED": { id: "SVC-9203", status: 503, category: "dependency", retryable: true, message: "The chain context could not be resolved.", why: "The organisation's networks could not be read.", fix: "Retry with exponential backoff." },
  WALLET_VERIFICATION_REQUIRED: { id: "SVC-9204", status: 400, category: "auth", retryable: false, message: "Wallet verification is required.", why: "Chain writes made with a session need walletVerification.", fix: "Send walletVerification with your PIN code." },
  WALLET_VERIFICATION_FAILED: { id: "SVC-9205", status: 403, category: "auth", retryable: false, message: "Wallet verification failed.", why: "The verification code does not match.", fix: "Send the correct code." },
  CONTRACT_ROLE_MISSING: { id: "SVC-1107", status: 403, category: "permission", retryable: false, message: "The signing wallet lacks the contract role.", why: "The contract's access control refused the signer: it does not hold requiredRole.", fix: "Grant requiredRole to the signing wallet on the contract, or sign with a wallet that holds it." },
  ERC20_BALANCE_INSUFFICIENT: { id: "SVC-1108", status: 422, category: "domain", retryable: false, message: "The signing wallet's balance does not cover the amount.", why: "The write pulls an amount of an ERC-20 asset from the signing wallet, which holds less (details: asset, account, balance, required).", fix: "Fund the signing wallet with the asset, or send a smaller amount." },
  ERC20_ALLOWANCE_INSUFFICIENT: { id: "SVC-1109", status: 422, category: "domain", retryable: false, message: "The signing wallet's allowance does not cover the amount.", why: "The write's contract (details.spender) pulls the amount with transferFrom, and the signing wallet allows it less (details: asset, account, spender, allowance, required).", fix: "Grant the spender an allowance of at least details.required first: POST /api/v2/tokens/{tokenAddress}/approvals {spender, amount} (a registered external token: POST /api/v2/external-tokens/{tokenAddress}/approvals)." },
  IDEMPOTENCY_KEY_EXPIRED: { id: "SVC-9540", status: 409, category: "domain", retryable: false, message: "This idempotency key is older than 24 hours.", why: "The key was first used more than 24 hours ago; its request is no longer replayable.", fix: "Confirm the earlier request did not already do the work (read its status), then send with a new key." },
  IDEMPOTENCY_REQUEST_CANCELLED: { id: "SVC-9541", status: 409, category: "domain", retryable: false, message: "The request this key is attached to was cancelled.", why: "The first request with this key was cancelled.", fix: "Confirm nothing was created, then send with a new key." },
  IDEMPOTENCY_WALLET_SELECTION_MISMATCH: { id: "SVC-9542", status: 409, category: "domain", retryable: false, message: "This key was used with another wallet selection.", why: "accountWalletId, smartWalletAddress or forceEoa differ from the first request with this key.", fix: "Keep the original wallet selection, or use a new key for a different one." },
  IDEMPOTENCY_KEY_REUSED: { id: "SVC-9543", status: 409, category: "domain", retryable: false, message: "This key belongs to a different operation.", why: "The first request with this key was another instruction or executor mode.", fix: "Use a new key for a different operation." },
  IDEMPOTENCY_REQUEST_UNRECOVERABLE: { id: "SVC-9544", status: 409, category: "operational", retryable: false, message: "The request behind this key cannot be recovered.", why: "The first request with this key needs manual intervention.", fix: "Stop retrying and contact support with the transaction id." },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: { id: "SVC-9546", status: 409, category: "domain", retryable: true, message: "The first request with this key is still running.", why: "Another request with this Idempotency-Key has not answered yet.", fix: "Wait a moment, then send the same request with the same key to get its answer." },
} as const satisfies Record<string, ErrorDefinition>;

/** A plugin's declared definitions, as the base its errors.ts adds to ErrorCodes. */
export type DeclaredErrors<T extends Record<string, ErrorDefinition>> = T;

/**
 * Every declared code: the core's here, and each plugin's, which its errors.ts adds without the host importing it:
 * `declare module "../../host/errors/registry.ts" { interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} }`.
 */
export interface ErrorCodes extends DeclaredErrors<typeof CORE_ERRORS> {}

/** A code the core or a plugin declares: a misspelt code given to ApiError fails the typecheck. */
export type ErrorCode = keyof ErrorCodes & string;

const registry = createNameRegistry<ErrorDefinition>("error code", CORE_ERRORS);

/** Adds the composed plugins' codes (once per process, by registerPlugins). */
export const registerErrors = registry.register;

/** A code's definition; an unregistered code throws a plain Error naming it. */
export const errorDefinition = registry.get;

/** Every registered code: the core's, then the plugins'. */
export const registeredErrors = registry.entries;
