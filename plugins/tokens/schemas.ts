import { z } from "@hono/zod-openapi";
import {
  AddressSchema,
  UintStringSchema,
  WalletSelectionFields,
  WalletVerificationSchema,
} from "../../host/http/schemas.ts";
import { TOKEN_FEATURES } from "./templates.ts";

export const FeatureIdSchema = z.enum(TOKEN_FEATURES);

export const TokenTemplateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    isSystem: z.boolean(),
    requiredFeatures: z.array(FeatureIdSchema),
    allowedFeatures: z.array(FeatureIdSchema),
    defaults: z.object({
      decimals: z.number().int(),
      featureConfigs: z.record(z.string(), z.record(z.string(), z.unknown())),
    }),
    availableForCreation: z.boolean(),
  })
  .openapi("TokenTemplate");

export const CreateTokenBodySchema = z
  .object({
    templateId: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(64),
    symbol: z
      .string()
      .trim()
      .min(1)
      .max(16)
      .regex(/^[A-Za-z0-9._-]+$/, "letters, digits, '.', '_' or '-'"),
    decimals: z.number().int().min(0).max(18).optional(),
    featureConfigs: z.record(FeatureIdSchema, z.record(z.string(), z.unknown())).optional(),
    walletVerification: WalletVerificationSchema.optional(),
    ...WalletSelectionFields,
  })
  .strict()
  .openapi("CreateTokenRequest");

export const MintBodySchema = z
  .object({
    recipients: z.array(AddressSchema).min(1).max(100),
    amounts: z
      .array(UintStringSchema.refine((v) => !/^\d+$/.test(v) || BigInt(v) > 0n, "must be greater than zero"))
      .min(1)
      .max(100),
    walletVerification: WalletVerificationSchema.optional(),
    ...WalletSelectionFields,
  })
  .strict()
  .refine((b) => b.recipients.length === b.amounts.length, {
    message: "recipients and amounts must have the same length",
    path: ["amounts"],
  })
  .openapi("MintRequest");

export const TokenSchema = z
  .object({
    id: z.string(),
    address: z.string(),
    chainId: z.number().int(),
    type: z.string(),
    name: z.string(),
    symbol: z.string(),
    decimals: z.number().int(),
    totalSupply: z.string().openapi({ description: "raw units" }),
    holderCount: z.number().int(),
    features: z.array(z.object({ id: FeatureIdSchema, config: z.record(z.string(), z.unknown()) })),
    system: z.string(),
    createdBy: z.object({ id: z.string() }),
    deployedInTransaction: z.string(),
    createdAt: z.string(),
  })
  .openapi("Token");

export const LegacyHolderSchema = z.object({
  account: z.object({ id: z.string() }),
  value: z.string(),
  available: z.string(),
  frozen: z.string(),
  isFrozen: z.boolean(),
  lastUpdatedAt: z.string(),
});
