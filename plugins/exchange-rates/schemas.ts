// Request and response shapes of the exchange-rate routes (zod, so validation and the OpenAPI document agree).
import { z } from "@hono/zod-openapi";
import { IsoTimestampSchema } from "../../host/http/schemas.ts";

export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "an ISO 4217 alpha-3 code in upper case, e.g. EUR")
  .openapi({ example: "EUR" });

export const PairParams = z.object({
  baseCurrency: CurrencyCode.openapi({ param: { name: "baseCurrency", in: "path" } }),
  quoteCurrency: CurrencyCode.openapi({ param: { name: "quoteCurrency", in: "path" } }),
});

/** A positive decimal, at most 18 fraction digits (e.g. "1.0842"). */
export const RateString = z
  .string()
  .regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, "a positive decimal string, e.g. 1.0842")
  .refine((v) => /[1-9]/.test(v), "must be greater than zero")
  .openapi({ example: "1.0842" });

export const OverrideBodySchema = z
  .object({
    rate: RateString,
    effectiveAt: IsoTimestampSchema.optional().openapi({ description: "ISO 8601 (years 0001..9999). Default: now" }),
  })
  .strict()
  .openapi("ExchangeRateOverrideBody");

export const ExchangeRateSchema = z
  .object({
    baseCurrency: z.string(),
    quoteCurrency: z.string(),
    rate: z.string().nullable().openapi({ description: "Quote units one base unit buys (decimal string)" }),
    effectiveAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
    feedAddress: z.string().nullable().openapi({ description: "The pair's feed; null when only an override exists" }),
    source: z.enum(["feed", "override"]).openapi({ description: "Where `rate` comes from: an override wins" }),
  })
  .openapi("ExchangeRate");

export const ExchangeRateHistoryItemSchema = z
  .object({
    id: z.string(),
    source: z.enum(["feed", "override"]),
    rate: z.string(),
    effectiveAt: z.string(),
    updatedAt: z.string(),
    roundId: z.string().nullable().openapi({ description: "The feed's round (feed values only)" }),
    transactionHash: z.string().nullable(),
    removedAt: z.string().nullable().openapi({ description: "When the override was removed (overrides only)" }),
  })
  .openapi("ExchangeRateHistoryItem");

export const SupportedCurrenciesSchema = z
  .object({ providerKey: z.string(), currencies: z.array(z.string()) })
  .openapi("SupportedCurrencies");

export const SyncResultSchema = z
  .object({ providerKey: z.string(), effectiveAt: z.string(), pairs: z.number().int() })
  .openapi("ExchangeRateSync");
