// The token features' parameters: their JSON shape in the API, their ABI encoding on chain and their decoded values
// in the index. The catalogue's fields (catalogue.ts) drive validation, encoding, decoding and formatting.
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
import { type FeatureId, type Field, featureEntry, TOKEN_FEATURES } from "./catalogue.ts";

export { type FeatureId, TOKEN_FEATURES };

export const YIELD_INTERVALS = ["DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "SEMI_ANNUALLY", "ANNUALLY"] as const;

/** Each feature's parameters, in the order of their encoding. */
const fieldsOf = (id: FeatureId) => featureEntry(id).fields;

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

const exampleOf = (id: FeatureId) => Object.fromEntries(fieldsOf(id).map((f) => [f.name, KIND_DOC[f.kind].example]));

const CONFIG_SCHEMAS = new Map(
  TOKEN_FEATURES.map((id) => [
    id,
    z.object(Object.fromEntries(fieldsOf(id).map((f) => [f.name, fieldSchema(f)]))).strict(),
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
              fieldsOf(id).length === 0
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
  return fieldsOf(id).map((f) => f.name);
}

/** Assets whose decimals encoding or decoding needs ("token" stands for the token itself). */
export function amountAssets(id: FeatureId, values: Record<string, unknown>): (Address | "token")[] {
  return fieldsOf(id).flatMap((f) =>
    f.kind === "amount" ? [f.asset === "token" ? "token" : getAddress(String(values[f.asset]))] : [],
  );
}

export type DecimalsOf = (asset: Address | "token") => number;

const toSeconds = (date: string) => BigInt(Math.floor(epochMs(date) / 1000));

/** The ABI encoding of a validated configuration; "0x" for features without parameters. */
export function encodeFeatureParams(id: FeatureId, config: Record<string, unknown>, decimalsOf: DecimalsOf): Hex {
  const fields = fieldsOf(id);
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
  const fields = fieldsOf(id);
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
    fieldsOf(id)
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
