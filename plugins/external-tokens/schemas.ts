// The external token resources as the spec names their fields: the contract inspection, the list item, the
// registration body.
import { z } from "@hono/zod-openapi";
import { AddressSchema, WalletSelectionFields, WalletVerificationSchema } from "../../host/http/schemas.ts";
import { KNOWN_TO } from "./inspection.ts";

export const ContractInspectionSchema = z
  .object({
    address: z.string(),
    hasCode: z.boolean(),
    token: z
      .object({
        name: z.string(),
        symbol: z.string(),
        decimals: z.number().int().openapi({ description: "18 when the contract has no decimals()" }),
        totalSupply: z.string().openapi({ description: "Human-readable (decimals applied)" }),
      })
      .nullable()
      .openapi({ description: "null when the contract does not answer the ERC-20 totalSupply()" }),
    isSmart: z.boolean(),
    knownTo: z.enum(KNOWN_TO).nullable(),
    registration: z.object({
      eligible: z.boolean(),
      blockingReason: z.enum(["no-code", "already-registered", "system-managed"]).nullable(),
    }),
  })
  .openapi("ContractInspection");

export const ExternalTokenSchema = z
  .object({
    id: z.string().openapi({ description: "The token's address" }),
    name: z.string(),
    symbol: z.string(),
    decimals: z.number().int().openapi({ description: "18 when the token has no decimals()" }),
    totalSupply: z.string().openapi({ description: "Human-readable (decimals applied)" }),
    totalSupplyExact: z.string().openapi({ description: "Raw uint256" }),
    type: z.string(),
    pausable: z.object({ paused: z.boolean() }),
    externalRegisteredAt: z.string().openapi({ description: "ISO 8601" }),
    externalRegisteredBy: z.object({ id: z.string() }).nullable(),
    externalDetectedInterfaces: z.array(z.string()).nullable().openapi({ description: "ERC20, ERC3643, SMART" }),
    implementsERC3643: z.boolean(),
    implementsSMART: z.boolean(),
  })
  .openapi("ExternalToken");

export const RegisterExternalTokenBodySchema = z
  .object({
    tokenAddress: AddressSchema,
    tokenType: z
      .string()
      .min(1)
      .max(64)
      .openapi({ description: "e.g. bond, equity, fund, stablecoin, deposit, cryptocurrency, other" }),
    walletVerification: WalletVerificationSchema.optional(),
    ...WalletSelectionFields,
  })
  .openapi("RegisterExternalToken");
