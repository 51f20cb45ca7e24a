import { z } from "@hono/zod-openapi";
import { ComplianceConfigsSchema } from "../../domain/compliance/control-types.ts";
import { FeatureConfigsSchema, TOKEN_FEATURES } from "../../domain/features/feature-params.ts";
import { WalletSelectionFields, WalletVerificationSchema } from "../../host/http/schemas.ts";

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
    complianceTemplateId: z.string().nullable().optional(),
    organizationId: z.string().nullable().optional(),
    createdAt: z.string().nullable().optional(),
    availableForCreation: z.boolean(),
  })
  .openapi("TokenTemplate");

export const CreateTokenTemplateBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().max(1000).optional(),
    requiredFeatures: z.array(FeatureIdSchema).max(11),
    allowedFeatures: z.array(FeatureIdSchema).max(11),
    defaults: z
      .object({
        decimals: z.number().int().min(0).max(18).optional(),
        featureConfigs: z.partialRecord(FeatureIdSchema, z.record(z.string(), z.unknown())).optional(),
      })
      .strict()
      .optional(),
    complianceTemplateId: z.string().min(1).max(64).optional(),
  })
  .strict()
  .openapi("CreateTokenTemplateRequest");

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
    featureConfigs: FeatureConfigsSchema.optional().meta({
      description:
        "Per-feature parameters overlaying the template's defaults, keyed by feature id. A feature named here is " +
        "attached (it must be allowed by the template); the template's required features are attached anyway.",
    }),
    complianceTemplateId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "A published or library compliance template; defaults to the token template's" }),
    complianceConfigs: ComplianceConfigsSchema.optional().meta({
      description:
        "Per-control parameters overlaying the compliance template's, keyed by control type id (only controls of " +
        "the compliance template).",
    }),
    walletVerification: WalletVerificationSchema.optional(),
    ...WalletSelectionFields,
  })
  .strict()
  .openapi("CreateTokenRequest", {
    example: {
      templateId: "bond",
      name: "Green Bond 2030",
      symbol: "GB30",
      decimals: 18,
      featureConfigs: {
        "maturity-redemption": {
          maturityDate: "2030-12-31",
          denominationAsset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
          treasury: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
          faceValue: "1000",
        },
      },
    },
  });

export const TokenFeatureSchema = z
  .object({
    id: FeatureIdSchema,
    address: z.string().openapi({ description: "The feature instance's contract" }),
    config: z.record(z.string(), z.unknown()).openapi({ description: "Current parameter values" }),
    attachedAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("TokenFeature");

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
    features: z.array(TokenFeatureSchema),
    compliance: z
      .object({
        address: z.string(),
        modules: z.array(
          z.object({
            typeId: z.string(),
            module: z.string().openapi({ description: "The system's module instance" }),
            params: z.record(z.string(), z.unknown()).nullable().openapi({
              description: "The token's parameters for the module, in the compliance template's JSON shape",
            }),
            encodedParams: z.string().openapi({ description: "The same parameters as the module holds them (ABI)" }),
          }),
        ),
      })
      .nullable(),
    paused: z.boolean(),
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
