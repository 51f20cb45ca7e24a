// The XvP settlement resources: the creation, approval, execution and cancellation bodies, and the settlement read.
import { z } from "@hono/zod-openapi";
import { AddressSchema, IsoTimestampSchema, SignerFields, UintStringSchema } from "../../host/http/schemas.ts";

const Bytes32Schema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes as 0x-prefixed hex")
  .openapi({ example: `0x${"ab".repeat(32)}` });

const HexBytesSchema = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2}){0,1024}$/, "must be 0x-prefixed hex bytes (at most 1024)")
  .openapi({ example: "0x736563726574" });

export const FlowInputSchema = z.object({
  asset: AddressSchema.openapi({ description: "The ERC-20 that moves" }),
  from: AddressSchema.openapi({ description: "The sender: a party, who approves its outgoing legs" }),
  to: AddressSchema.openapi({ description: "The recipient" }),
  amount: UintStringSchema.openapi({ description: "Raw units, more than 0" }),
});

export const CreateXvpSettlementBodySchema = z
  .object({
    flows: z.array(FlowInputSchema).min(1).max(50),
    cutoffDate: IsoTimestampSchema.refine((d) => d.getTime() > 0, "must be after 1970-01-01").openapi({
      description: "ISO 8601; execution is refused after it",
    }),
    hashlock: Bytes32Schema.optional().openapi({
      description: "keccak256 of a secret: execution then needs the secret (e.g. the other chain of a swap)",
    }),
    ...SignerFields,
  })
  .openapi("CreateXvpSettlement");

export const SignerOnlyBodySchema = z.object({ ...SignerFields }).openapi("XvpSettlementAction");

export const ExecuteXvpSettlementBodySchema = z
  .object({
    secret: HexBytesSchema.optional().openapi({ description: "The hashlock's preimage (hex), when there is one" }),
    ...SignerFields,
  })
  .openapi("ExecuteXvpSettlement");

export const XVP_STATUSES = ["PENDING", "APPROVED", "EXECUTED", "CANCELLED", "EXPIRED"] as const;

export const XvpSettlementSchema = z
  .object({
    address: z.string(),
    creator: z.string(),
    cutoffDate: z.string().openapi({ description: "ISO 8601" }),
    hashlock: z.string().nullable(),
    status: z.enum(XVP_STATUSES).openapi({
      description:
        "PENDING; APPROVED: every party approved; EXECUTED; CANCELLED; EXPIRED: the cutoff passed without execution",
    }),
    flows: z.array(
      z.object({
        asset: z.string(),
        from: z.string(),
        to: z.string(),
        amount: z.string().openapi({ description: "Raw units" }),
        symbol: z.string().nullable().openapi({ description: "null when the index does not know the token" }),
        decimals: z.number().int().nullable(),
      }),
    ),
    approvals: z.array(
      z.object({
        party: z.string(),
        approved: z.boolean(),
        at: z.string().nullable().openapi({ description: "ISO 8601: the latest approval or revocation" }),
      }),
    ),
    executedAt: z.string().nullable(),
    executedInTransaction: z.string().nullable(),
    secret: z.string().nullable().openapi({ description: "The hashlock's preimage, public once executed" }),
    cancelledAt: z.string().nullable(),
    createdAt: z.string(),
    deployedInTransaction: z.string(),
  })
  .openapi("XvpSettlement");
