// Request bodies of the identity layer's chain writes (claims, claim issuer, trusted issuers, topic schemes, entities).
import { z } from "@hono/zod-openapi";
import { parseAbiParameters } from "viem";
import { AddressSchema, WalletSelectionFields, WalletVerificationSchema } from "../../host/http/schemas.ts";

/** What every chain write of this plugin also takes: the session caller's PIN, and the signer selection. */
export const SignerFields = {
  walletVerification: WalletVerificationSchema.optional(),
  ...WalletSelectionFields,
};

export const HexBytesSchema = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex bytes")
  .max(2 + 2 * 4096)
  .openapi({ example: "0x" });

export const Bytes32Schema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x-prefixed 32-byte hex")
  .openapi({ example: `0x${"ab".repeat(32)}` });

/** A claim topic's name, as registered in the topic scheme registry (topic id = uint256(keccak256(name))). */
export const TopicNameSchema = z.string().min(1).max(100).openapi({ example: "kyc" });

const ClaimValueSchema = z.union([z.string().max(1024), z.number(), z.boolean()]);

/** The subject: an identity, or a wallet whose identity (registered, else created by the system's factory) it is. */
const SubjectFields = {
  identityAddress: AddressSchema.optional().openapi({ description: "The subject identity (give this or wallet)" }),
  wallet: AddressSchema.optional().openapi({ description: "The subject's wallet (give this or identityAddress)" }),
};

function oneSubject(body: { identityAddress?: string; wallet?: string }, ctx: z.RefinementCtx) {
  if ((body.identityAddress === undefined) === (body.wallet === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["identityAddress"],
      message: "give exactly one of identityAddress and wallet",
    });
  }
}

export const IssueClaimBodySchema = z
  .object({
    ...SubjectFields,
    topic: TopicNameSchema,
    data: HexBytesSchema.optional().openapi({ description: "The claim data as raw bytes (or give values)" }),
    values: z.array(ClaimValueSchema).max(32).optional().openapi({
      description: "The claim data as values, ABI-encoded with the topic scheme's signature (or give data)",
    }),
    uri: z.string().max(2048).optional(),
    documentSha256: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x-prefixed 32-byte hex")
      .optional()
      .openapi({
        description:
          "The evidence: the sha256 of a KYC document of the subject's participant (POST /api/v2/participants/" +
          "{participantId}/kyc-documents), checked to exist; the claim's uri becomes its RFC 6920 name " +
          "`ni:///sha-256;<base64url digest>` (give uri or documentSha256)",
        example: `0x${"ab".repeat(32)}`,
      }),
    ...SignerFields,
  })
  .strict()
  .superRefine((body, ctx) => {
    oneSubject(body, ctx);
    if (body.data !== undefined && body.values !== undefined) {
      ctx.addIssue({ code: "custom", path: ["values"], message: "give data or values, not both" });
    }
    if (body.uri !== undefined && body.documentSha256 !== undefined) {
      ctx.addIssue({ code: "custom", path: ["documentSha256"], message: "give uri or documentSha256, not both" });
    }
  })
  .openapi("IssueClaimRequest");

/** Names the claim by id, or by topic (the claim of the organisation's claim issuer on that topic). */
const ClaimSelectorFields = {
  claimId: Bytes32Schema.optional().openapi({ description: "The claim id (or give topic)" }),
  topic: TopicNameSchema.optional().openapi({ description: "The topic of your claim issuer's claim (or claimId)" }),
};

export const ClaimSelectorBodySchema = z
  .object({ ...SubjectFields, ...ClaimSelectorFields, ...SignerFields })
  .strict()
  .superRefine((body, ctx) => {
    oneSubject(body, ctx);
    if ((body.claimId === undefined) === (body.topic === undefined)) {
      ctx.addIssue({ code: "custom", path: ["claimId"], message: "give exactly one of claimId and topic" });
    }
  });

export const RevokeClaimBodySchema = ClaimSelectorBodySchema.openapi("RevokeClaimRequest");
export const RemoveClaimBodySchema = ClaimSelectorBodySchema.openapi("RemoveClaimRequest");

export const SignerBodySchema = z.object(SignerFields).strict().openapi("SignerSelection");

const ClaimTopicsSchema = z
  .array(TopicNameSchema)
  .min(1)
  .max(15)
  .refine((names) => new Set(names).size === names.length, "must not repeat a topic")
  .openapi({ description: "Topic names (1 to 15, each once)" });

export const AddTrustedIssuerBodySchema = z
  .object({
    issuerAddress: AddressSchema.optional().openapi({
      description: "The issuer identity; defaults to the signing wallet's claim issuer identity",
    }),
    claimTopics: ClaimTopicsSchema,
    ...SignerFields,
  })
  .strict()
  .openapi("AddTrustedIssuerRequest");

export const UpdateTrustedIssuerBodySchema = z
  .object({ claimTopics: ClaimTopicsSchema, ...SignerFields })
  .strict()
  .openapi("UpdateTrustedIssuerRequest");

const parsesAsAbiParameters = (signature: string) => {
  try {
    return parseAbiParameters(signature).length > 0;
  } catch {
    return false;
  }
};

const TopicSignatureSchema = z
  .string()
  .min(1)
  .max(500)
  .refine(parsesAsAbiParameters, "must be ABI parameters, e.g. string country, uint256 expiry")
  .openapi({ description: "ABI parameters of the claim data", example: "string country, uint256 expiry" });

export const RegisterTopicSchemeBodySchema = z
  .object({ name: TopicNameSchema, signature: TopicSignatureSchema, ...SignerFields })
  .strict()
  .openapi("RegisterTopicSchemeRequest");

export const UpdateTopicSchemeBodySchema = z
  .object({ signature: TopicSignatureSchema, ...SignerFields })
  .strict()
  .openapi("UpdateTopicSchemeRequest");

export const RegisterIdentityBodySchema = z
  .object({
    wallet: AddressSchema,
    country: z.number().int().min(0).max(999).openapi({ description: "ISO 3166-1 numeric country code" }),
    ...SignerFields,
  })
  .strict()
  .openapi("RegisterIdentityRequest");

export const CreateEntityBodySchema = z
  .object({
    contractAddress: AddressSchema.openapi({ description: "The contract (e.g. a token) the identity is for" }),
    ...SignerFields,
  })
  .strict()
  .openapi("CreateEntityRequest");

export const IssuerAddressParams = z.object({
  issuerAddress: AddressSchema.openapi({ param: { name: "issuerAddress", in: "path" } }),
});

export const TopicNameParams = z.object({
  name: TopicNameSchema.openapi({ param: { name: "name", in: "path" } }),
});
