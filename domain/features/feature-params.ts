// The eleven token features' parameters: their JSON shape in the API, their ABI encoding on chain
// (contracts/features/README.md) and their decoded values in the index. One table drives validation, encoding,
// decoding and formatting.
import {
  type Address,
  decodeAbiParameters,
  encodeAbiParameters,
  formatUnits,
  getAddress,
  type Hex,
  parseUnits,
} from "viem";
import { z } from "zod";
import { AddressSchema } from "../evm/schemas.ts";

export const TOKEN_FEATURES = [
  "historical-balances",
  "maturity-redemption",
  "fixed-treasury-yield",
  "voting-power",
  "aum-fee",
  "transaction-fee",
  "transaction-fee-accounting",
  "external-transaction-fee",
  "conversion",
  "conversion-minter",
  "permit",
] as const;
export type FeatureId = (typeof TOKEN_FEATURES)[number];

export const YIELD_INTERVALS = ["DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "SEMI_ANNUALLY", "ANNUALLY"] as const;

/**
 * How one parameter is written in JSON and on chain. `amount` fields are decimal strings in the units of
 * the asset named by `asset` (another field holding its address, or "token" for the token itself).
 */
type Field =
  | { name: string; kind: "address" | "bps" | "date" | "interval" | "bool" | "integer" }
  | { name: string; kind: "amount"; asset: string };

const FIELDS: Record<FeatureId, Field[]> = {
  "historical-balances": [],
  "maturity-redemption": [
    { name: "maturityDate", kind: "date" },
    { name: "denominationAsset", kind: "address" },
    { name: "treasury", kind: "address" },
    { name: "faceValue", kind: "amount", asset: "denominationAsset" },
  ],
  "fixed-treasury-yield": [
    { name: "rate", kind: "bps" },
    { name: "interval", kind: "interval" },
    { name: "treasury", kind: "address" },
    { name: "denominationAsset", kind: "address" },
  ],
  "voting-power": [],
  "aum-fee": [
    { name: "feeBps", kind: "bps" },
    { name: "recipient", kind: "address" },
  ],
  "transaction-fee": [
    { name: "mintFeeBps", kind: "bps" },
    { name: "burnFeeBps", kind: "bps" },
    { name: "transferFeeBps", kind: "bps" },
    { name: "recipient", kind: "address" },
  ],
  "transaction-fee-accounting": [
    { name: "mintFeeBps", kind: "bps" },
    { name: "burnFeeBps", kind: "bps" },
    { name: "transferFeeBps", kind: "bps" },
    { name: "recipient", kind: "address" },
  ],
  "external-transaction-fee": [
    { name: "feeToken", kind: "address" },
    { name: "mintFeeAmount", kind: "amount", asset: "feeToken" },
    { name: "burnFeeAmount", kind: "amount", asset: "feeToken" },
    { name: "transferFeeAmount", kind: "amount", asset: "feeToken" },
    { name: "recipient", kind: "address" },
  ],
  conversion: [
    { name: "targetToken", kind: "address" },
    { name: "conversionMinter", kind: "address" },
    { name: "denominationAsset", kind: "address" },
    { name: "discountBps", kind: "bps" },
    { name: "capPricePerShareWad", kind: "integer" },
    { name: "conversionWindowStart", kind: "date" },
    { name: "conversionWindowEnd", kind: "date" },
    { name: "minConversionAmount", kind: "amount", asset: "token" },
    { name: "partialAllowed", kind: "bool" },
  ],
  "conversion-minter": [],
  permit: [],
};

const ABI_TYPE: Record<Field["kind"], string> = {
  address: "address",
  bps: "uint256",
  date: "uint256",
  interval: "string",
  bool: "bool",
  integer: "uint256",
  amount: "uint256",
};

const DECIMAL = /^\d{1,60}(\.\d{1,36})?$/;
const FIELD_SCHEMA: Record<Field["kind"], z.ZodTypeAny> = {
  address: AddressSchema,
  bps: z.number().int().min(0).max(10_000).meta({ description: "basis points (0 to 10000)" }),
  date: z.iso
    .datetime({ offset: true })
    .or(z.iso.date())
    .meta({ description: "ISO 8601 date or date-time (UTC when no offset)" }),
  interval: z.enum(YIELD_INTERVALS),
  bool: z.boolean(),
  integer: z.string().regex(/^\d{1,78}$/, "a non-negative integer as a string"),
  amount: z.string().regex(DECIMAL, "a non-negative decimal string"),
};

/** The JSON schema of one feature's configuration (all parameters required; templates fill defaults). */
export function featureConfigSchema(id: FeatureId) {
  return z.object(Object.fromEntries(FIELDS[id].map((f) => [f.name, FIELD_SCHEMA[f.kind]]))).strict();
}

export function featureParameterNames(id: FeatureId): string[] {
  return FIELDS[id].map((f) => f.name);
}

/** Assets whose decimals encoding or decoding needs ("token" stands for the token itself). */
export function amountAssets(id: FeatureId, values: Record<string, unknown>): (Address | "token")[] {
  return FIELDS[id].flatMap((f) =>
    f.kind === "amount" ? [f.asset === "token" ? "token" : getAddress(String(values[f.asset]))] : [],
  );
}

export type DecimalsOf = (asset: Address | "token") => number;

const toSeconds = (date: string) => {
  const ms = Date.parse(/T/.test(date) ? date : `${date}T00:00:00Z`);
  return BigInt(Math.floor(ms / 1000));
};

/** The ABI encoding of a validated configuration; "0x" for features without parameters. */
export function encodeFeatureParams(id: FeatureId, config: Record<string, unknown>, decimalsOf: DecimalsOf): Hex {
  const fields = FIELDS[id];
  if (fields.length === 0) return "0x";
  const values = fields.map((f) => {
    const v = config[f.name];
    switch (f.kind) {
      case "address":
        return getAddress(String(v));
      case "bps":
        return BigInt(v as number);
      case "date":
        return toSeconds(String(v));
      case "integer":
        return BigInt(String(v));
      case "amount": {
        const asset = f.asset === "token" ? "token" : getAddress(String(config[f.asset]));
        return parseUnits(String(v), decimalsOf(asset));
      }
      default:
        return v;
    }
  });
  return encodeAbiParameters(
    fields.map((f) => ({ name: f.name, type: ABI_TYPE[f.kind] })),
    values,
  );
}

/**
 * The chain's values of an encoding by parameter name, as the index stores them (JSON, not yet the API's shape):
 * integers as decimal strings (amounts raw), addresses as decoded, intervals and booleans as they are.
 */
export type FeatureValues = Record<string, string | boolean>;

/** The values of an on-chain encoding (see FeatureValues); throws for params that do not decode as `id`'s. */
export function decodeFeatureValues(id: FeatureId, params: Hex): FeatureValues {
  const fields = FIELDS[id];
  if (fields.length === 0 || params === "0x") return {};
  const raw = decodeAbiParameters(
    fields.map((f) => ({ name: f.name, type: ABI_TYPE[f.kind] })),
    params,
  );
  return Object.fromEntries(
    fields.map((f, i) => {
      const v = raw[i] as bigint | string | boolean;
      return [f.name, typeof v === "bigint" ? v.toString() : v];
    }),
  );
}

/** The JSON configuration (the API's shape) of a feature's values (see FeatureValues). */
export function formatFeatureParams(
  id: FeatureId,
  values: FeatureValues,
  decimalsOf: DecimalsOf,
): Record<string, unknown> {
  return Object.fromEntries(
    FIELDS[id]
      .filter((f) => f.name in values)
      .map((f) => {
        const v = values[f.name];
        switch (f.kind) {
          case "address":
            return [f.name, getAddress(String(v))];
          case "bps":
            return [f.name, Number(v)];
          case "date":
            return [f.name, new Date(Number(v) * 1000).toISOString()];
          case "integer":
            return [f.name, String(v)];
          case "amount": {
            const asset = f.asset === "token" ? "token" : getAddress(String(values[f.asset]));
            return [f.name, formatUnits(BigInt(String(v)), decimalsOf(asset))];
          }
          default:
            return [f.name, v];
        }
      }),
  );
}

/** The JSON configuration of an on-chain encoding (the inverse of encodeFeatureParams). */
export function decodeFeatureParams(id: FeatureId, params: Hex, decimalsOf: DecimalsOf): Record<string, unknown> {
  return formatFeatureParams(id, decodeFeatureValues(id, params), decimalsOf);
}

export function isFeatureId(value: string): value is FeatureId {
  return (TOKEN_FEATURES as readonly string[]).includes(value);
}
