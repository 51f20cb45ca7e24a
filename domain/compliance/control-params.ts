// The `params` JSON of each compliance control (what an organisation writes) and its ABI encoding (what the module's
// `setParameters(token, bytes)` decodes; contracts/compliance/README.md). The schemas refuse what the module would
// revert on, so a template that validates here deploys.
import { encodeAbiParameters, getAddress, type Hex, keccak256, parseAbiParameters, toBytes, zeroAddress } from "viem";
import { z } from "zod";
import { AddressSchema, UintStringSchema } from "../evm/schemas.ts";

/** ListModuleBase.MAX_LIST_ENTRIES; InvestorCountModule.MAX_COUNTRY_LIMITS. */
const MAX_LIST_ENTRIES = 256;
/** TransferApprovalModule.MAX_APPROVERS. */
const MAX_APPROVERS = 32;
/** IdentityVerificationModule.MAX_EXPRESSION_NODES. */
const MAX_EXPRESSION_NODES = 32;
/** CollateralModule.MIN_RATIO_BPS (1:1). */
const MIN_COLLATERAL_RATIO_BPS = 10_000;

/** Seconds (uint64 on chain), as a JSON integer. */
const Seconds = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** ISO 3166-1 numeric (e.g. 56 Belgium, 276 Germany); 0 is the registry's "no country". */
const Country = z.number().int().min(1).max(999).meta({ description: "ISO 3166-1 numeric code", example: 276 });
const positive = (v: string) => !/^\d+$/.test(v) || BigInt(v) > 0n;

/** Flags the second and later occurrence of an entry at its index (the modules refuse duplicates). */
function unique<T>(key: (entry: T) => unknown) {
  return (list: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<unknown>();
    list.forEach((entry, index) => {
      if (seen.has(key(entry))) ctx.addIssue({ code: "custom", path: [index], message: "duplicate entry" });
      seen.add(key(entry));
    });
  };
}

const addressList = (min: number, max = MAX_LIST_ENTRIES) =>
  z
    .array(AddressSchema.refine((a) => a.toLowerCase() !== zeroAddress, "must not be the zero address"))
    .min(min)
    .max(max)
    .superRefine(unique((a: string) => a.toLowerCase()));

const countryList = (min: number) =>
  z
    .array(Country)
    .min(min)
    .max(MAX_LIST_ENTRIES)
    .superRefine(unique((c: number) => c));

const encode = (types: string, values: readonly unknown[]): Hex =>
  encodeAbiParameters(parseAbiParameters(types), values as never);
const addresses = (list: readonly string[]) => list.map((a) => getAddress(a));

export const AddressBlockListParams = z
  .object({ blocked: addressList(0).default([]) })
  .strict()
  .meta({ id: "AddressBlockListParams" });
export const encodeAddressBlockList = (p: z.output<typeof AddressBlockListParams>) =>
  encode("address[]", [addresses(p.blocked)]);

export const CapitalRaiseLimitParams = z
  .object({
    maxTotal: UintStringSchema.default("0").meta({ description: "cap on all minted, raw units; 0 = none" }),
    periodLimit: UintStringSchema.default("0").meta({ description: "cap per period, raw units; 0 = none" }),
    periodLength: Seconds.default(0).meta({ description: "seconds; > 0 exactly when periodLimit is" }),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (!/^\d+$/.test(p.maxTotal) || !/^\d+$/.test(p.periodLimit)) return; // already reported
    if (BigInt(p.maxTotal) === 0n && BigInt(p.periodLimit) === 0n) {
      ctx.addIssue({ code: "custom", path: ["maxTotal"], message: "set maxTotal or periodLimit (or both)" });
    }
    if ((BigInt(p.periodLimit) === 0n) !== (p.periodLength === 0)) {
      ctx.addIssue({ code: "custom", path: ["periodLength"], message: "must be > 0 exactly when periodLimit is" });
    }
  })
  .meta({ id: "CapitalRaiseLimitParams" });
export const encodeCapitalRaiseLimit = (p: z.output<typeof CapitalRaiseLimitParams>) =>
  encode("uint256, uint256, uint64", [BigInt(p.maxTotal), BigInt(p.periodLimit), BigInt(p.periodLength)]);

export const CappedParams = z
  .object({ maxSupply: UintStringSchema.refine(positive, "must be greater than zero").meta({ example: "1000000" }) })
  .strict()
  .meta({ id: "CappedParams" });
export const encodeCapped = (p: z.output<typeof CappedParams>) => encode("uint256", [BigInt(p.maxSupply)]);

export const CollateralParams = z
  .object({
    oracle: AddressSchema.refine((a) => a.toLowerCase() !== zeroAddress, "must not be the zero address"),
    ratioBps: z
      .number()
      .int()
      .min(MIN_COLLATERAL_RATIO_BPS)
      .max(2 ** 32 - 1)
      .meta({ description: "required collateral per unit of supply; 10000 = 1:1" }),
  })
  .strict()
  .meta({ id: "CollateralParams" });
export const encodeCollateral = (p: z.output<typeof CollateralParams>) =>
  encode("address, uint32", [getAddress(p.oracle), p.ratioBps]);

export const CountryAllowListParams = z
  .object({ countries: countryList(1) })
  .strict()
  .meta({ id: "CountryAllowListParams" });
export const CountryBlockListParams = z
  .object({ countries: countryList(0).default([]) })
  .strict()
  .meta({ id: "CountryBlockListParams" });
export const encodeCountries = (p: { countries: number[] }) => encode("uint16[]", [p.countries]);

export const IdentityAllowListParams = z
  .object({ identities: addressList(1) })
  .strict()
  .meta({ id: "IdentityAllowListParams" });
export const IdentityBlockListParams = z
  .object({ identities: addressList(0).default([]) })
  .strict()
  .meta({ id: "IdentityBlockListParams" });
export const encodeIdentities = (p: { identities: string[] }) => encode("address[]", [addresses(p.identities)]);

const NODE_TYPES = { TOPIC: 0, AND: 1, OR: 2, NOT: 3 } as const;
const ExpressionNode = z.discriminatedUnion("nodeType", [
  z
    .object({
      nodeType: z.literal("TOPIC"),
      topic: z.string().min(1).max(128).meta({ description: "claim topic name; id = uint256(keccak256(name))" }),
    })
    .strict(),
  z.object({ nodeType: z.enum(["AND", "OR", "NOT"]) }).strict(),
]);
type ExpressionNode = z.output<typeof ExpressionNode>;

/** Postfix well-formedness as the module checks it: operators need operands, the whole reduces to one value. */
function checkPostfix(expression: ExpressionNode[], ctx: z.RefinementCtx) {
  let depth = 0;
  for (const [index, node] of expression.entries()) {
    const needs = node.nodeType === "TOPIC" ? 0 : node.nodeType === "NOT" ? 1 : 2;
    if (depth < needs) {
      ctx.addIssue({ code: "custom", path: [index], message: `${node.nodeType} needs ${needs} operand(s) before it` });
      return;
    }
    depth += node.nodeType === "TOPIC" ? 1 : node.nodeType === "NOT" ? 0 : -1;
  }
  if (expression.length > 0 && depth !== 1) {
    ctx.addIssue({ code: "custom", path: [], message: "a postfix expression must reduce to exactly one value" });
  }
}

export const IdentityVerificationParams = z
  .object({
    expression: z.array(ExpressionNode).max(MAX_EXPRESSION_NODES).default([]).superRefine(checkPostfix).meta({
      description:
        "Claim-topic expression in postfix order, e.g. KYC and AML: [TOPIC KYC, TOPIC AML, AND]; empty = registered only",
    }),
  })
  .strict()
  .meta({ id: "IdentityVerificationParams" });
/** A claim topic's id, as TopicSchemeRegistry computes it. */
export const topicId = (name: string): bigint => BigInt(keccak256(toBytes(name)));
export const encodeIdentityVerification = (p: z.output<typeof IdentityVerificationParams>) =>
  encode("(uint8 nodeType, uint256 value)[]", [
    p.expression.map((node) => ({
      nodeType: NODE_TYPES[node.nodeType],
      value: node.nodeType === "TOPIC" ? topicId(node.topic) : 0n,
    })),
  ]);

export const InvestorCountParams = z
  .object({
    maxInvestors: Count.default(0).meta({ description: "holders in total; 0 = no total cap" }),
    countries: countryList(0).default([]),
    countryLimits: z.array(Count.min(1)).max(MAX_LIST_ENTRIES).default([]),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.countries.length !== p.countryLimits.length) {
      ctx.addIssue({ code: "custom", path: ["countryLimits"], message: "needs one limit per entry of countries" });
    }
    if (p.maxInvestors === 0 && p.countries.length === 0) {
      ctx.addIssue({ code: "custom", path: ["maxInvestors"], message: "set maxInvestors or a country limit" });
    }
  })
  .meta({ id: "InvestorCountParams" });
export const encodeInvestorCount = (p: z.output<typeof InvestorCountParams>) =>
  encode("uint256, uint16[], uint256[]", [BigInt(p.maxInvestors), p.countries, p.countryLimits.map(BigInt)]);

export const TimeLockParams = z
  .object({ lockDuration: Seconds.min(1).meta({ description: "seconds each receipt stays locked" }) })
  .strict()
  .meta({ id: "TimeLockParams" });
export const encodeTimeLock = (p: z.output<typeof TimeLockParams>) => encode("uint64", [BigInt(p.lockDuration)]);

export const TransferApprovalParams = z
  .object({
    approvers: addressList(1, MAX_APPROVERS),
    approvalValidity: Seconds.default(0).meta({ description: "seconds an approval stays valid; 0 = no expiry" }),
  })
  .strict()
  .meta({ id: "TransferApprovalParams" });
export const encodeTransferApproval = (p: z.output<typeof TransferApprovalParams>) =>
  encode("address[], uint64", [addresses(p.approvers), BigInt(p.approvalValidity)]);
