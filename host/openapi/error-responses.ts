// The error responses of the v2 document: one `components.responses` entry per status, each in the Form A envelope
// (`#/components/schemas/Error`), referenced by every operation that can answer it. Operations keep the error
// responses they describe in their own words; the generic ones become references, and the statuses their kind of
// operation can answer are added (422 on authenticated writes, 408 and 504 on chain writes, 413 and 415 with a body).
import { ERROR_ENVELOPE_DESCRIPTION } from "../http/schemas.ts";
import { byOperationKind, type DocumentOperation, type OperationMethod } from "./document-operations.ts";
import { ERROR_SCHEMA_NAMES } from "./error-schemas.ts";

const envelope = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAMES.A}` } } },
});

/** By component name: the status and what it means on this API (the envelope's `code` names the case). */
export const ERROR_RESPONSES = {
  BadRequest: [
    400,
    envelope(
      "The request is invalid: BAD_REQUEST names every failing field in `data.issues` (`path`, `message`); other " +
        "codes name an invalid header or selection (e.g. CHAIN_ID_HEADER_INVALID, INVALID_REQUEST_EXECUTOR).",
    ),
  ],
  Unauthorized: [401, envelope("No valid credentials: send an API key in X-Api-Key or a session cookie.")],
  Forbidden: [
    403,
    envelope(
      "Authenticated but not allowed: USER_NOT_AUTHORIZED names `requiredPermission` and `requiredRoles`; a read-only " +
        "API key cannot write; an on-chain role the signing wallet lacks is named by its code; a write with the session " +
        "cookie from another Origin is CROSS_SITE_REQUEST_REFUSED, one without Content-Type: application/json " +
        "SESSION_WRITE_JSON_REQUIRED.",
    ),
  ],
  NotFound: [
    404,
    envelope("The resource does not exist or is outside your organisation (its own code, e.g. TOKEN_NOT_FOUND)."),
  ],
  Conflict: [
    409,
    envelope(
      "The resource's state refuses the request: it already exists, it changed meanwhile, the organisation's system " +
        "on the chain is not ready (CHAIN_NOT_READY), or an Idempotency-Key was used for another instruction.",
    ),
  ],
  UnprocessableEntity: [
    422,
    envelope(
      "Well-formed but refused by a domain rule before anything is queued, e.g. COMPLIANCE_CHECK_FAILED (a compliance " +
        "module of the token refuses; `module`, `typeId`, `reason`), TOKEN_INSUFFICIENT_BALANCE, " +
        "TOKEN_FEATURES_INCOMPATIBLE.",
    ),
  ],
  TooManyRequests: [
    429,
    envelope("Rate limited: retry after the number of seconds in Retry-After (also `data.retryAfterSeconds`).", {
      "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 0 } },
    }),
  ],
  PayloadTooLarge: [413, envelope("PAYLOAD_TOO_LARGE: the body is above 1 MiB.")],
  UnsupportedMediaType: [
    415,
    envelope("UNSUPPORTED_MEDIA_TYPE: the body is not JSON, or its Content-Type is not application/json."),
  ],
  InternalServerError: [500, envelope("An unexpected failure; retry with backoff and quote `data.requestId`.")],
  ServiceUnavailable: [
    503,
    envelope(
      "A dependency (database, chain, index) is not available right now; retry after the seconds in Retry-After, " +
        "with exponential backoff. SERVICE_UNAVAILABLE: the chain's node did not answer in time, or the database " +
        "cannot be reached (then also `data.retryAfterSeconds`). INDEXER_REINDEXING: no index build can answer yet " +
        "(a first start, or the indexer restarted) and it did not catch up within 5 s (also " +
        "`data.retryAfterSeconds`); with `Prefer: handling=strict` it is answered at once instead of waiting, with " +
        "`Preference-Applied: handling=strict`. While a changed index build backfills, reads are answered from the " +
        "previous build (which may lag the chain), not with this error.",
      {
        "Retry-After": {
          description: "Seconds to wait before retrying",
          schema: { type: "integer", minimum: 0 },
        },
      },
    ),
  ],
  RequestTimeout: [
    408,
    envelope(
      "HSM_MOFN_QUORUM_EXPIRED: the custody partition of the signing key is not active (its activation expired, or " +
        "the write waited for it in vain); activate the partition, then resubmit.",
    ),
  ],
  GatewayTimeout: [
    504,
    envelope(
      "REQUEST_DEADLINE_EXCEEDED: the operation did not finish within Prefer: wait=N but may still run; read its " +
        "status (statusUrl) before sending it again.",
    ),
  ],
} as const;

type ErrorResponseName = keyof typeof ERROR_RESPONSES;

const NAME_OF_STATUS = new Map(
  (Object.keys(ERROR_RESPONSES) as ErrorResponseName[]).map((name) => [String(ERROR_RESPONSES[name][0]), name]),
);

/** What every operation in the Form A envelope may answer; then by kind of operation. */
const EVERY_OPERATION = [400, 401, 403, 404, 409, 429, 500, 503];
const AUTHENTICATED_WRITE = [...EVERY_OPERATION, 422];
const CHAIN_WRITE = [...AUTHENTICATED_WRITE, 408, 504];

/** The components.responses section. */
export function errorResponseComponents(): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([name, [, response]]) => [name, response]));
}

/** A request body can be too large or not JSON. */
const WITH_BODY = [413, 415];

function statusesOf(method: OperationMethod, operation: DocumentOperation): number[] {
  const kind = byOperationKind(method, operation, {
    chainWrite: CHAIN_WRITE,
    authenticatedWrite: AUTHENTICATED_WRITE,
    other: EVERY_OPERATION,
  });
  return operation.requestBody ? [...kind, ...WITH_BODY] : kind;
}

const isGeneric = (response: unknown) =>
  (response as { description?: string })?.description === ERROR_ENVELOPE_DESCRIPTION;

/** Replaces the operation's generic error responses by references and adds the ones its kind can answer. */
export function withSharedErrorResponses(method: OperationMethod, operation: DocumentOperation): void {
  const responses = { ...operation.responses } as Record<string, unknown>;
  for (const status of statusesOf(method, operation)) responses[status] ??= { description: ERROR_ENVELOPE_DESCRIPTION };
  for (const [status, response] of Object.entries(responses)) {
    const name = NAME_OF_STATUS.get(status);
    if (name && isGeneric(response)) responses[status] = { $ref: `#/components/responses/${name}` };
  }
  // Statuses in ascending order, as a reader scans them.
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
  ) as DocumentOperation["responses"];
}
