// zod building blocks shared by every plugin's route schemas.
import { z } from "@hono/zod-openapi";
import { ADDRESS_CHECKSUM_MESSAGE, checksumIfAddress } from "../../domain/evm/address.ts";
import { AddressSchema as DomainAddress, UintStringSchema as DomainUintString } from "../../domain/evm/schemas.ts";
import { STORABLE_TIME_RULE } from "../../domain/time/storable-time.ts";
import { parseTimestamp } from "../collections/values.ts";

// The domain's EVM value schemas (plain zod), copied here once @hono/zod-openapi has extended zod: a schema zod built
// before that has no `.openapi()`, and the domain may load first. On a domain schema itself, annotate with `.meta()`.
export const AddressSchema = DomainAddress.meta({});
export const UintStringSchema = DomainUintString.meta({});

/** The `{participantId}` of a participant's routes (a user id, or the address of an asset, claim issuer, addon). */
export const ParticipantPathParams = z.object({
  participantId: z
    .string()
    .min(1)
    .max(200)
    // an id that is an address must pass its checksum like any other address
    .refine(checksumIfAddress, ADDRESS_CHECKSUM_MESSAGE)
    .openapi({ param: { name: "participantId", in: "path" } }),
});

/** A query parameter that may be repeated (`?k=a&k=b`): always an array, of at most `max` items. */
export function repeatable<T extends z.ZodType>(item: T, max = 100) {
  return z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(max)).optional();
}

/**
 * Every date the API accepts, in a query or a body: an ISO 8601 date or date-time (without an offset: UTC) within
 * years 0001..9999 UTC (domain/time/storable-time.ts), as a Date. Nothing outside reaches PostgreSQL or the chain.
 */
export const IsoTimestampSchema = z
  .string()
  .refine((v) => parseTimestamp(v) !== undefined, `must be an ISO 8601 date or date-time; ${STORABLE_TIME_RULE}`)
  .transform((v) => parseTimestamp(v) as Date)
  .openapi({ type: "string", format: "date-time", example: "2025-01-31T00:00:00Z" });

export const AcceptedMutationSchema = z
  .object({ transactionId: z.string(), status: z.string(), statusUrl: z.string() })
  .openapi("AcceptedMutation", {
    example: {
      transactionId: "0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b",
      status: "QUEUED",
      statusUrl: "/v2/transaction-requests/0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b",
    },
  });

export const ErrorFormASchema = z
  .object({
    code: z.string(),
    status: z.number().int(),
    message: z.string(),
    data: z
      .object({
        id: z.string(),
        why: z.string(),
        fix: z.string(),
        retryable: z.boolean(),
        category: z.enum(["client", "auth", "permission", "domain", "dependency", "operational", "unknown"]),
        requestId: z.string(),
        dalpCode: z
          .string()
          .optional()
          .openapi({
            description:
              "A contract's refusal: the custom error's stable code, e.g. TOKEN_PAUSED (docs/contract-errors.md); " +
              "retryable then says whether the write can pass once the cause is resolved",
          }),
        suggestedAction: z
          .string()
          .optional()
          .openapi({ description: "A contract's refusal: what to do before sending the write again" }),
      })
      .passthrough(),
  })
  .openapi("Error");

/** A route's error response without words of its own: the v2 document refers it to the status's shared response. */
export const ERROR_ENVELOPE_DESCRIPTION = "Error (Form A envelope)";

const genericError = {
  description: ERROR_ENVELOPE_DESCRIPTION,
  content: { "application/json": { schema: ErrorFormASchema } },
};

/** The error responses every authenticated v2 route can give. */
export const errorResponses = Object.fromEntries(
  [400, 401, 403, 404, 409, 429, 500, 503].map((status) => [status, genericError]),
);

export const linksSelf = z.object({ self: z.string() });

/** A route's JSON request body (`required: false`: an absent body validates as `{}`). */
export function jsonBody<T extends z.ZodType>(schema: T, required = true) {
  return { required, content: { "application/json": { schema } } };
}

/** Session-authenticated chain writes carry the caller's PIN code; API-key callers may omit it. */
export const WalletVerificationSchema = z
  .object({
    verificationType: z.literal("PINCODE"),
    secretVerificationCode: z.string().regex(/^\d{6}$/, "a 6-digit code"),
  })
  .openapi("WalletVerification");

/** The spec's signer selection on chain writes (at most one of them; forceEoa skips smart wallets). */
export const WalletSelectionFields = {
  accountWalletId: z.string().min(1).max(64).optional(),
  smartWalletAddress: AddressSchema.optional(),
  forceEoa: z.boolean().optional(),
};

/** The fields a chain write's body takes to pick and verify its signing wallet. */
export const SignerFields = { walletVerification: WalletVerificationSchema.optional(), ...WalletSelectionFields };

/** An ERC-20 allowance from the signing wallet (any token the API writes to: platform or registered external). */
export const ApprovalBodySchema = z
  .object({
    spender: AddressSchema,
    amount: UintStringSchema.openapi({ description: "Raw units; 0 revokes" }),
    walletVerification: WalletVerificationSchema.optional(),
    ...WalletSelectionFields,
  })
  .strict()
  .openapi("ApprovalRequest");

export const CompletedMutationSchema = z
  .object({
    data: z
      .object({ transactionId: z.string(), kind: z.string(), status: z.string(), blockNumber: z.string().nullable() })
      .passthrough(),
    meta: z.object({ txHashes: z.array(z.string()) }),
    links: linksSelf,
  })
  .openapi("CompletedMutation");

/** Sent only on an answer for a repeated Idempotency-Key: the earlier request's, not a new one. */
const IdempotentReplayedHeader = z.literal("true").optional().openapi({
  description: "true when the answer is the earlier request's, replayed for a repeated Idempotency-Key",
});

/** What a chain write answers: 202 accepted (default), 200 completed (under Prefer: wait, or a replay), errors. */
export const mutationResponses = {
  200: {
    description: "Completed (Prefer: wait=N, or a replay of a completed request): the recorded result",
    headers: z.object({
      "X-Transaction-Hash": z.string(),
      "Idempotency-Key": z.string(),
      "Idempotent-Replayed": IdempotentReplayedHeader,
    }),
    content: { "application/json": { schema: CompletedMutationSchema } },
  },
  202: {
    description: "Accepted: follow statusUrl (also in Location); do not resubmit",
    headers: z.object({
      Location: z.string(),
      "Idempotency-Key": z.string(),
      "Idempotent-Replayed": IdempotentReplayedHeader,
    }),
    content: { "application/json": { schema: AcceptedMutationSchema } },
  },
  ...errorResponses,
  422: genericError,
  504: genericError,
};

/** A JSON response of `schema` for a route's `responses`. */
export const jsonResponse = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** The responses of a read of one resource: 200 `{ data, links: { self } }` of `data`, or an error. */
export const singleResponses = <T extends z.ZodTypeAny>(data: T, description: string) => ({
  200: jsonResponse(z.object({ data, links: linksSelf }), description),
  ...errorResponses,
});
