// The token sale resources as the API names their fields: the creation, purchase and withdrawal bodies, the sale.
import { z } from "@hono/zod-openapi";
import { AddressSchema, IsoTimestampSchema, SignerFields, UintStringSchema } from "../../host/http/schemas.ts";
import { SALE_STATUSES } from "./terms.ts";

export const CreateTokenSaleBodySchema = z
  .object({
    tokenAddress: AddressSchema.openapi({ description: "A token of your organisation's system: what the sale sells" }),
    paymentAsset: AddressSchema.openapi({
      description: "What buyers pay with: a token of your organisation's system or a registered external token",
    }),
    priceWad: UintStringSchema.openapi({
      description: "Payment units per token unit, 18-decimal fixed point (1e18: one payment unit per token unit)",
    }),
    hardCap: UintStringSchema.openapi({ description: "Token units for sale in all (raw units)" }),
    softCap: UintStringSchema.optional().openapi({
      description: "Token units that must be sold for the sale to succeed (raw units, default 0); missed: refunds",
    }),
    startDate: IsoTimestampSchema.openapi({ description: "ISO 8601; purchases from then" }),
    endDate: IsoTimestampSchema.openapi({
      description: "ISO 8601, in the future; purchases until then, withdrawals after",
    }),
    ...SignerFields,
  })
  .strict()
  .openapi("CreateTokenSale");

export const PurchaseBodySchema = z
  .object({
    amount: UintStringSchema.openapi({ description: "Token units to buy (raw units); the payment is priceOf(amount)" }),
    ...SignerFields,
  })
  .strict()
  .openapi("TokenSalePurchase");

export const WithdrawalBodySchema = z
  .object({ ...SignerFields })
  .strict()
  .openapi("TokenSaleWithdrawal");

const AssetSchema = z.object({
  address: z.string(),
  name: z.string().nullable(),
  symbol: z.string().nullable(),
  decimals: z.number().int().nullable(),
});

export const TokenSaleSchema = z
  .object({
    address: z.string(),
    issuer: z.string().openapi({
      description: "The wallet that takes the proceeds: the sale's creator, unless it handed the seat over",
    }),
    tokenSource: z.string().openapi({
      description: "The wallet tokens move from at withdrawal: the issuer at creation, even after a hand-over",
    }),
    token: AssetSchema,
    paymentAsset: AssetSchema,
    priceWad: z.string(),
    hardCap: z.string(),
    softCap: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    sold: z.string().openapi({ description: "Token units sold" }),
    remaining: z.string().openapi({ description: "Token units left to sell (hardCap - sold)" }),
    raised: z.string().openapi({ description: "Payment units taken in" }),
    status: z.enum(SALE_STATUSES).openapi({
      description:
        "At the chain's time: UPCOMING before startDate, OPEN until endDate (SOLD_OUT once the hard cap is sold), then ENDED_SUCCESS (soft cap reached: buyers withdraw tokens, the issuer the proceeds) or ENDED_REFUNDING (missed: buyers withdraw their payment)",
    }),
    proceedsWithdrawn: z.boolean(),
    issuerAllowance: z
      .object({
        granted: z.string(),
        required: z.string().openapi({ description: "hardCap less the tokens already delivered" }),
        sufficient: z.boolean(),
      })
      .openapi({
        description:
          "The token source's token allowance to the sale (read live): grant it with POST /api/v2/tokens/{tokenAddress}/approvals {spender: the sale, amount: hardCap}",
      }),
    purchases: z.array(
      z.object({
        buyer: z.string(),
        amount: z.string(),
        payment: z.string(),
        withdrawn: z.boolean().openapi({ description: "The buyer took its tokens" }),
        refunded: z.boolean().openapi({ description: "The buyer took its payment back" }),
      }),
    ),
    createdAt: z.string(),
    deployedInTransaction: z.string(),
  })
  .openapi("TokenSale");
