// Request bodies of the token operations (chain writes on an existing token). Amounts are raw units.
import { z } from "@hono/zod-openapi";
import {
  AddressSchema,
  UintStringSchema,
  WalletSelectionFields,
  WalletVerificationSchema,
} from "../../host/http/schemas.ts";

/** Every write body carries the session's PIN and the optional signer selection. */
const writeFields = { walletVerification: WalletVerificationSchema.optional(), ...WalletSelectionFields };

const PositiveAmountSchema = UintStringSchema.refine(
  (v) => !/^\d+$/.test(v) || BigInt(v) > 0n,
  "must be greater than zero",
);

const BATCH_MAX = 100;
const AddressBatchSchema = z.array(AddressSchema).min(1).max(BATCH_MAX);
const AmountBatchSchema = z.array(PositiveAmountSchema).min(1).max(BATCH_MAX);
const HOLDER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER_HOLDER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
/** 95 and 5 whole tokens of 18 decimals, in raw units. */
const AMOUNTS = ["95000000000000000000", "5000000000000000000"];

const sameLength = (addresses: string) => ({
  message: `${addresses} and amounts must have the same length`,
  path: ["amounts"],
});

export const MintBodySchema = z
  .object({ recipients: AddressBatchSchema, amounts: AmountBatchSchema, ...writeFields })
  .strict()
  .refine((b) => b.recipients.length === b.amounts.length, sameLength("recipients"))
  .openapi("MintRequest", {
    description: "Mints amounts[i] (raw units) to recipients[i], in one transaction",
    example: { recipients: [HOLDER, OTHER_HOLDER], amounts: AMOUNTS },
  });

export const BurnBodySchema = z
  .object({ holders: AddressBatchSchema, amounts: AmountBatchSchema, ...writeFields })
  .strict()
  .refine((b) => b.holders.length === b.amounts.length, sameLength("holders"))
  .openapi("BurnRequest", {
    description: "Burns amounts[i] (raw units) from holders[i], in one transaction",
    example: { holders: [HOLDER], amounts: [AMOUNTS[1]] },
  });

export const TransferBodySchema = z
  .object({ recipients: AddressBatchSchema, amounts: AmountBatchSchema, ...writeFields })
  .strict()
  .refine((b) => b.recipients.length === b.amounts.length, sameLength("recipients"))
  .openapi("TransferRequest", {
    description: "Sends amounts[i] (raw units) of the signing wallet's tokens to recipients[i], in one transaction",
    example: { recipients: [OTHER_HOLDER], amounts: [AMOUNTS[1]] },
  });

export const ForcedTransferBodySchema = z
  .object({ from: AddressSchema, to: AddressSchema, amount: PositiveAmountSchema, ...writeFields })
  .strict()
  .openapi("ForcedTransferRequest");

export const AccountBodySchema = z
  .object({ account: AddressSchema, ...writeFields })
  .strict()
  .openapi("AddressFreezeRequest");

export const AccountAmountBodySchema = z
  .object({ account: AddressSchema, amount: PositiveAmountSchema, ...writeFields })
  .strict()
  .openapi("PartialFreezeRequest");

/** Pause and unpause take no parameters; the body is optional (sessions send their walletVerification in it). */
export const EmptyWriteBodySchema = z.object(writeFields).strict().openapi("TokenWriteRequest");

const MetadataKeySchema = z.string().min(1).max(64);

export const MetadataPatchBodySchema = z
  .object({
    fields: z
      .record(MetadataKeySchema, z.string().min(1).max(1024).nullable())
      .refine((f) => Object.keys(f).length >= 1, "set or remove at least one key")
      .refine((f) => Object.keys(f).length <= 50, "at most 50 keys per request")
      .openapi({
        description: "Issuer metadata keys: a string sets the key, null removes it (as in a JSON merge patch).",
        example: { isin: "XS0000000001", prospectus: null },
      }),
    ...writeFields,
  })
  .strict()
  .openapi("TokenMetadataPatch");

/** ERC-1643 document name: up to 32 bytes of UTF-8, or the raw bytes32 as 0x + 64 hex digits. */
export const DocumentNameSchema = z
  .string()
  .min(1)
  .max(66)
  .refine(
    (v) => /^0x[0-9a-fA-F]{64}$/.test(v) || new TextEncoder().encode(v).length <= 32,
    "at most 32 bytes of UTF-8, or 0x followed by 64 hex digits",
  )
  .openapi({ example: "prospectus" });

const Bytes32Schema = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "0x followed by 64 hex digits");

export const DocumentBodySchema = z
  .object({
    uri: z.string().min(1).max(2048),
    documentHash: Bytes32Schema.optional().openapi({ description: "Content hash; zero when omitted" }),
    ...writeFields,
  })
  .strict()
  .openapi("TokenDocumentRequest");

export const PermitBodySchema = z
  .object({
    owner: AddressSchema,
    spender: AddressSchema,
    value: UintStringSchema,
    deadline: UintStringSchema.openapi({ description: "Unix seconds" }),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, "a 65-byte signature: 0x followed by 130 hex digits")
      .refine(
        (sig) => !/^0x[0-9a-fA-F]{130}$/.test(sig) || [0, 1, 27, 28].includes(Number.parseInt(sig.slice(-2), 16)),
        {
          message: "the last byte (v) must be 27 or 28 (or 0 or 1)",
        },
      )
      .openapi({ description: "The owner's EIP-2612 signature (r, s, v)" }),
    ...writeFields,
  })
  .strict()
  .openapi("PermitRequest");

export const RedemptionBodySchema = z
  .object({ amount: PositiveAmountSchema, ...writeFields })
  .strict()
  .openapi("RedemptionRequest");
