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
import { isStorableTime, STORABLE_TIME_RULE } from "../time/storable-time.ts";

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
type Field = { name: string; about: string } & (
  | { kind: "address" | "bps" | "date" | "interval" | "bool" | "integer" }
  | { kind: "amount"; asset: string }
);

const FEES = (what: string): Field[] => [
  { name: "mintFeeBps", kind: "bps", about: `${what} on each mint` },
  { name: "burnFeeBps", kind: "bps", about: `${what} on each burn` },
  { name: "transferFeeBps", kind: "bps", about: `${what} on each transfer` },
  { name: "recipient", kind: "address", about: "the wallet that receives the fees" },
];

/** Units as contracts/features/README.md states them; `about` says what the parameter is. */
const FIELDS: Record<FeatureId, Field[]> = {
  "historical-balances": [],
  "maturity-redemption": [
    { name: "maturityDate", kind: "date", about: "when the token matures and holders may redeem" },
    { name: "denominationAsset", kind: "address", about: "the ERC-20 the face value is paid in" },
    { name: "treasury", kind: "address", about: "the wallet that pays the face value" },
    {
      name: "faceValue",
      kind: "amount",
      asset: "denominationAsset",
      about: "paid per whole token at maturity",
    },
  ],
  "fixed-treasury-yield": [
    { name: "rate", kind: "bps", about: "the yield per year of 365 days" },
    { name: "interval", kind: "interval", about: "how often yield falls due" },
    { name: "treasury", kind: "address", about: "the wallet that pays the yield" },
    { name: "denominationAsset", kind: "address", about: "the ERC-20 the yield is paid in" },
  ],
  "voting-power": [],
  "aum-fee": [
    { name: "feeBps", kind: "bps", about: "the management fee per year of 365 days, on the supply" },
    { name: "recipient", kind: "address", about: "the wallet that receives the fee" },
  ],
  "transaction-fee": FEES("the fee, taken in tokens,"),
  "transaction-fee-accounting": FEES("the fee, recorded for later settlement,"),
  "external-transaction-fee": [
    { name: "feeToken", kind: "address", about: "the ERC-20 the fees are paid in" },
    { name: "mintFeeAmount", kind: "amount", asset: "feeToken", about: "the flat fee on each mint" },
    { name: "burnFeeAmount", kind: "amount", asset: "feeToken", about: "the flat fee on each burn" },
    { name: "transferFeeAmount", kind: "amount", asset: "feeToken", about: "the flat fee on each transfer" },
    { name: "recipient", kind: "address", about: "the wallet that receives the fees" },
  ],
  conversion: [
    { name: "targetToken", kind: "address", about: "the token holders convert into (it carries conversion-minter)" },
    { name: "conversionMinter", kind: "address", about: "the target token's conversion-minter feature" },
    { name: "denominationAsset", kind: "address", about: "the ERC-20 prices are expressed in" },
    { name: "discountBps", kind: "bps", about: "the discount on the conversion price" },
    {
      name: "capPricePerShareWad",
      kind: "integer",
      about: "the price cap: whole denomination units per whole target share, scaled by 1e18",
    },
    { name: "conversionWindowStart", kind: "date", about: "when conversions open" },
    { name: "conversionWindowEnd", kind: "date", about: "when conversions close" },
    { name: "minConversionAmount", kind: "amount", asset: "token", about: "the smallest amount converted at once" },
    { name: "partialAllowed", kind: "bool", about: "whether a holder may convert part of a balance" },
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

/** A validated date or date-time (a date alone is midnight UTC) as epoch milliseconds. */
const epochMs = (date: string) => Date.parse(/T/.test(date) ? date : `${date}T00:00:00Z`);

const DECIMAL = /^\d{1,60}(\.\d{1,36})?$/;
const FIELD_SCHEMA: Record<Field["kind"], z.ZodTypeAny> = {
  address: AddressSchema,
  bps: z.number().int().min(0).max(10_000),
  date: z.iso
    .datetime({ offset: true })
    .or(z.iso.date())
    .refine(
      (v) => isStorableTime(epochMs(v)) && epochMs(v) >= 0,
      `${STORABLE_TIME_RULE}, from 1970 (seconds on chain)`,
    ),
  interval: z.enum(YIELD_INTERVALS),
  bool: z.boolean(),
  integer: z.string().regex(/^\d{1,78}$/, "a non-negative integer as a string"),
  amount: z.string().regex(DECIMAL, "a non-negative decimal string"),
};

/** Each kind's unit, as the API writes it, and an example value. */
const KIND_DOC: Record<Field["kind"], { unit: string; example: unknown }> = {
  address: { unit: "an EVM address", example: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
  bps: { unit: "basis points, an integer from 0 to 10000 (100 = 1%)", example: 500 },
  date: { unit: "an ISO 8601 date or date-time (UTC when no offset); seconds on chain", example: "2030-12-31" },
  interval: { unit: `one of ${YIELD_INTERVALS.join(", ")}`, example: "QUARTERLY" },
  bool: { unit: "a boolean", example: true },
  integer: { unit: "a non-negative integer as a decimal string", example: "1000000000000000000" },
  amount: { unit: "", example: "1000" },
};

function unitOf(field: Field): string {
  if (field.kind !== "amount") return KIND_DOC[field.kind].unit;
  const asset = field.asset === "token" ? "the token" : `the asset in ${field.asset}`;
  return `a decimal string in whole units of ${asset} (not raw units: scaled by its decimals)`;
}

/** The documented schema of one parameter: its kind's validation, what it is, its unit and an example. */
const fieldSchema = (field: Field) =>
  FIELD_SCHEMA[field.kind].meta({
    description: `${field.about[0].toUpperCase()}${field.about.slice(1)}: ${unitOf(field)}`,
    example: KIND_DOC[field.kind].example,
  });

const exampleOf = (id: FeatureId) => Object.fromEntries(FIELDS[id].map((f) => [f.name, KIND_DOC[f.kind].example]));

const CONFIG_SCHEMAS = new Map(
  TOKEN_FEATURES.map((id) => [
    id,
    z.object(Object.fromEntries(FIELDS[id].map((f) => [f.name, fieldSchema(f)]))).strict(),
  ]),
);

/** The JSON schema of one feature's configuration (all parameters required; templates fill defaults). */
export function featureConfigSchema(id: FeatureId) {
  return CONFIG_SCHEMAS.get(id) as z.ZodObject;
}

const pascal = (id: string) => id.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/**
 * Token creation's `featureConfigs`: per feature id, the parameters that overlay the template's defaults. Each
 * parameter is optional here; the merged configuration must then name all of them (400 names the missing ones).
 */
export const FeatureConfigsSchema = z
  .object(
    Object.fromEntries(
      TOKEN_FEATURES.map((id) => [
        id,
        featureConfigSchema(id)
          .partial()
          .meta({
            id: `${pascal(id)}FeatureConfig`,
            description:
              FIELDS[id].length === 0
                ? `The ${id} feature has no parameters: send {} to attach it.`
                : `The ${id} feature's parameters (${featureParameterNames(id).join(", ")}); each is required ` +
                  "unless the template's defaults give it.",
            example: exampleOf(id),
          })
          .optional(),
      ]),
    ),
  )
  .strict();

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

const toSeconds = (date: string) => BigInt(Math.floor(epochMs(date) / 1000));

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
