// The public error registry: every code the API can answer with, its stable id, status and category.
// Ids the spec pairs explicitly are kept as given; the others are ours and never reused.
export type ErrorCategory = "client" | "auth" | "permission" | "domain" | "dependency" | "operational" | "unknown";

export interface ErrorDefinition {
  id: string;
  status: number;
  category: ErrorCategory;
  retryable: boolean;
  message: string;
  why: string;
  fix: string;
}

const def = (
  id: string,
  status: number,
  category: ErrorCategory,
  retryable: boolean,
  message: string,
  why: string,
  fix: string,
): ErrorDefinition => ({ id, status, category, retryable, message, why, fix });

export const ERROR_REGISTRY = {
  BAD_REQUEST: def("SVC-0001", 400, "client", false, "The request is invalid.", "A parameter, header or body field failed validation.", "Correct the named field and send the request again."),
  UNAUTHORIZED: def("SVC-0002", 401, "auth", false, "Authentication is required.", "The request carried no valid credential: the API key is missing, unknown, revoked or expired.", "Send a valid key in the X-Api-Key header, or sign in again."),
  FORBIDDEN: def("SVC-0003", 403, "permission", false, "You may not do this.", "Your role does not allow this operation.", "Ask an administrator of the organisation for the role."),
  NOT_FOUND: def("SVC-0004", 404, "client", false, "Not found.", "The resource does not exist or is outside your organisation.", "Check the identifier and the organisation you are working in."),
  CONFLICT: def("SVC-0005", 409, "domain", false, "The request conflicts with the current state.", "The resource is not in a state that allows this change.", "Read the resource, then decide whether to retry."),
  ROLE_MISSING: def("SVC-0006", 403, "permission", false, "A required role is missing.", "Your role does not allow this operation.", "Ask an administrator for the role named in requiredRoles."),
  METHOD_NOT_ALLOWED: def("SVC-0007", 405, "client", false, "Method not allowed.", "This path does not accept that HTTP method.", "Use a method the route documents."),
  PAYLOAD_TOO_LARGE: def("SVC-0008", 413, "client", false, "The request body is too large.", "The body exceeds the size the API accepts.", "Send a smaller body."),
  UNSUPPORTED_MEDIA_TYPE: def("SVC-0009", 415, "client", false, "The request body must be JSON.", "The Content-Type is not application/json or the body is not valid JSON.", "Send a JSON body with Content-Type: application/json."),
  ACTIVE_ORGANIZATION_REQUIRED: def("SVC-0034", 403, "auth", false, "An active organisation is required.", "The credential is not bound to an organisation you belong to.", "Pin an organisation you belong to with x-organization-id, or use a key of that organisation."),
  SERVICE_UNAVAILABLE: def("SVC-0083", 503, "dependency", true, "The service is temporarily unavailable.", "A component the request needs is not ready.", "Retry with exponential backoff."),
  INTERNAL_SERVER_ERROR: def("SVC-0084", 500, "unknown", true, "An unexpected error occurred.", "The server failed in a way it did not anticipate.", "Retry with exponential backoff; quote the requestId when contacting support."),
  TOKEN_TEMPLATE_NOT_FOUND: def("SVC-0301", 404, "client", false, "Unknown token template.", "No library or organisation template has this id.", "List the templates with GET /api/v2/token-templates and use one of their ids."),
  TOKEN_FEATURE_UNAVAILABLE: def("SVC-0302", 422, "domain", false, "A feature of this template is not available on this deployment.", "The template requires a token feature this platform version cannot deploy yet.", "Choose a template whose required features are all available (see availableFeatures)."),
  TOKEN_NOT_FOUND: def("SVC-0303", 404, "client", false, "Token not found.", "No token with this address exists in your organisation's system on this chain.", "Check the address and X-Chain-Id."),
  API_KEY_READ_ONLY: def("SVC-12130", 403, "auth", false, "This API key is read-only.", "A key with scope read may only send GET, HEAD and OPTIONS requests.", "Use a read-write key for writes."),
  API_KEY_NOT_SUPPORTED_ON_RPC: def("SVC-12131", 403, "auth", false, "API keys are not accepted on the RPC route.", "The RPC route authenticates sessions only.", "Call the REST routes with the key, or sign in."),
  "auth.apikey.THROTTLED": def("SVC-12136", 429, "auth", true, "Too many requests for this API key.", "The key used up its request allowance for the current window.", "Wait for the Retry-After interval, then retry."),
  AUTH_STORE_UNAVAILABLE: def("SVC-12258", 503, "dependency", true, "Authentication is temporarily unavailable.", "The credential store could not be reached.", "Retry with exponential backoff."),
  CHAIN_ID_HEADER_INVALID: def("SVC-9521", 400, "client", false, "X-Chain-Id is invalid.", "X-Chain-Id must be a positive decimal chain id.", "Send a decimal chain id, or omit the header to use the organisation's default network."),
  CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION: def("SVC-9522", 400, "client", false, "This chain is not available to the organisation.", "The platform serves no such chain for your organisation.", "Select one of the organisation's networks with X-Chain-Id."),
  REQUEST_CHAIN_SYSTEM_REQUIRED: def("SVC-9524", 404, "domain", false, "No system is deployed for this organisation on this chain.", "The organisation has no platform system on the selected chain.", "Deploy the organisation's system on this chain, or select another chain with X-Chain-Id."),
  CHAIN_NOT_READY: def("SVC-9086", 409, "domain", true, "The organisation's system on this chain is not ready.", "The system deployment on this chain has not completed.", "Retry once chainStatus is ready."),
  REQUEST_DEADLINE_EXCEEDED: def("SVC-9532", 504, "operational", false, "The request deadline passed.", "The operation did not finish in time but may still be running.", "Read the operation's status before sending it again; wait Retry-After first."),
  COLLECTION_FILTER_IN_LIST_TOO_LARGE: def("SVC-9273", 400, "client", false, "The filter list is too large.", "inArray and notInArray take at most 100 members.", "Split the query, or narrow it with other filters."),
  COLLECTION_PAGE_LIMIT_OUT_OF_RANGE: def("SVC-9274", 400, "client", false, "page[limit] is out of range.", "page[limit] must be an integer from 1 to 200.", "Send page[limit] between 1 and 200."),
  COLLECTION_PAGE_OFFSET_OUT_OF_RANGE: def("SVC-9275", 400, "client", false, "page[offset] is out of range.", "page[offset] must be an integer from 0 to 10000.", "Send page[offset] between 0 and 10000, or narrow the query with filters."),
  CONTRACT_ERROR: def("SVC-1000", 422, "domain", false, "The contract refused the operation.", "The chain call reverted.", "Read contractError and resolve its cause before retrying."),
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;
