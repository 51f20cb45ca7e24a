// The compliance control catalogue: every control type id, its module set (1 legacy, 2 current), category, the
// schema of its `params` JSON and their on-chain encoding. Compliance templates validate against it; token creation
// encodes a template's module params with it (plugins share it through domain/, never through each other).
import type { Hex } from "viem";
import { z } from "zod";
import {
  AddressBlockListParams,
  CapitalRaiseLimitParams,
  CappedParams,
  CollateralParams,
  CountryAllowListParams,
  CountryBlockListParams,
  encodeAddressBlockList,
  encodeCapitalRaiseLimit,
  encodeCapped,
  encodeCollateral,
  encodeCountries,
  encodeIdentities,
  encodeIdentityVerification,
  encodeInvestorCount,
  encodeTimeLock,
  encodeTransferApproval,
  IdentityAllowListParams,
  IdentityBlockListParams,
  IdentityVerificationParams,
  InvestorCountParams,
  TimeLockParams,
  TransferApprovalParams,
} from "./control-params.ts";

export type ModuleSetVersion = 1 | 2;
export const MODULE_SET_VERSIONS = [1, 2] as const satisfies readonly ModuleSetVersion[];
/** What a template gets when it names none. */
export const CURRENT_MODULE_SET_VERSION: ModuleSetVersion = 2;

export type ControlCategory = "Identity" | "Limits" | "Collateral" | "Geographic" | "Transfer";

export interface ControlType<Id extends string = string, Params extends z.ZodType = z.ZodType> {
  id: Id;
  moduleSetVersion: ModuleSetVersion;
  category: ControlCategory;
  /** The `params` JSON of a module of this type (validated, with defaults filled in). */
  params: Params;
  /** Valid `params`, for the API document (checked by control-types.test.ts). */
  example: Record<string, unknown>;
  /** Validates `params` (throws the schema's ZodError) and ABI-encodes them as the module's `bytes params`. */
  encodeParams(params: unknown): Hex;
}

function control<const Id extends string, Params extends z.ZodType>(
  id: Id,
  moduleSetVersion: ModuleSetVersion,
  category: ControlCategory,
  params: Params,
  encode: (params: z.output<Params>) => Hex,
  example: Record<string, unknown>,
): ControlType<Id, Params> {
  return { id, moduleSetVersion, category, params, example, encodeParams: (value) => encode(params.parse(value)) };
}

const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const IDENTITY = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
/** One example per params schema (a v1 id takes its v2 twin's). */
const EXAMPLES = {
  addressBlockList: { blocked: [WALLET] },
  capitalRaiseLimit: { maxTotal: "1000000000000000000000000", periodLimit: "0", periodLength: 0 },
  capped: { maxSupply: "1000000000000000000000000" },
  collateral: { oracle: "0x5FbDB2315678afecb367f032d93F642f64180aa3", ratioBps: 10_000 },
  countryAllowList: { countries: [56, 276] },
  countryBlockList: { countries: [408] },
  identityAllowList: { identities: [IDENTITY] },
  identityBlockList: { identities: [IDENTITY] },
  identityVerification: {
    expression: [{ nodeType: "TOPIC", topic: "KYC" }, { nodeType: "TOPIC", topic: "AML" }, { nodeType: "AND" }],
  },
  investorCount: { maxInvestors: 500, countries: [276], countryLimits: [100] },
  timeLock: { lockDuration: 86_400 },
  transferApproval: { approvers: [WALLET], approvalValidity: 3600 },
};

/** Every control type; legacy v1 ids take the same params (and rules) as their v2 twins. */
export const CONTROL_TYPES = [
  control(
    "address-block-list-v2",
    2,
    "Identity",
    AddressBlockListParams,
    encodeAddressBlockList,
    EXAMPLES.addressBlockList,
  ),
  control(
    "capital-raise-limit",
    2,
    "Limits",
    CapitalRaiseLimitParams,
    encodeCapitalRaiseLimit,
    EXAMPLES.capitalRaiseLimit,
  ),
  control("capped-v2", 2, "Limits", CappedParams, encodeCapped, EXAMPLES.capped),
  control("collateral-v2", 2, "Collateral", CollateralParams, encodeCollateral, EXAMPLES.collateral),
  control("country-allow-list-v2", 2, "Geographic", CountryAllowListParams, encodeCountries, EXAMPLES.countryAllowList),
  control("country-block-list-v2", 2, "Geographic", CountryBlockListParams, encodeCountries, EXAMPLES.countryBlockList),
  control(
    "identity-allow-list-v2",
    2,
    "Identity",
    IdentityAllowListParams,
    encodeIdentities,
    EXAMPLES.identityAllowList,
  ),
  control(
    "identity-block-list-v2",
    2,
    "Identity",
    IdentityBlockListParams,
    encodeIdentities,
    EXAMPLES.identityBlockList,
  ),
  control(
    "identity-verification-v2",
    2,
    "Identity",
    IdentityVerificationParams,
    encodeIdentityVerification,
    EXAMPLES.identityVerification,
  ),
  control("investor-count-v2", 2, "Limits", InvestorCountParams, encodeInvestorCount, EXAMPLES.investorCount),
  control("time-lock-v2", 2, "Transfer", TimeLockParams, encodeTimeLock, EXAMPLES.timeLock),
  control(
    "transfer-approval-v2",
    2,
    "Transfer",
    TransferApprovalParams,
    encodeTransferApproval,
    EXAMPLES.transferApproval,
  ),
  control("country-allow-list", 1, "Geographic", CountryAllowListParams, encodeCountries, EXAMPLES.countryAllowList),
  control("investor-count", 1, "Limits", InvestorCountParams, encodeInvestorCount, EXAMPLES.investorCount),
  control(
    "transfer-approval",
    1,
    "Transfer",
    TransferApprovalParams,
    encodeTransferApproval,
    EXAMPLES.transferApproval,
  ),
] as const;

export type ControlTypeId = (typeof CONTROL_TYPES)[number]["id"];
export const CONTROL_TYPE_IDS = CONTROL_TYPES.map((t) => t.id) as [ControlTypeId, ...ControlTypeId[]];

const BY_ID: ReadonlyMap<string, ControlType> = new Map(CONTROL_TYPES.map((t) => [t.id, t]));

/** The control type with this id, or undefined for an unknown id. */
export function controlType(id: string): ControlType | undefined {
  return BY_ID.get(id);
}

export function isControlTypeId(id: string): id is ControlTypeId {
  return BY_ID.has(id);
}

/** A params field as an overlay: its default left to the module (so it does not override a template's value). */
function overlayField(field: z.ZodType): z.ZodType {
  if (!(field instanceof z.ZodDefault)) return field.optional();
  return (field.unwrap() as z.ZodType).meta(field.meta() ?? {}).optional();
}

const pascal = (id: string) => id.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/**
 * Token creation's `complianceConfigs`: per control type id, parameters overlaying the compliance template's (each
 * optional here; the merged parameters are validated against the control's params, rules included, at creation).
 */
export const ComplianceConfigsSchema = z
  .object(
    Object.fromEntries(
      CONTROL_TYPES.map((type) => {
        const shape = (type.params as unknown as z.ZodObject).shape;
        const overlay = z
          .object(Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, overlayField(field)])))
          .strict()
          .meta({
            id: `${pascal(type.id)}ComplianceConfig`,
            description: `The ${type.id} control's parameters (${type.category}, module set v${type.moduleSetVersion}).`,
            example: type.example,
          });
        return [type.id, overlay.optional()];
      }),
    ),
  )
  .strict();

/** The ids, in the order given, that do not belong to `moduleSetVersion` (unknown ids included), without repeats. */
export function incompatibleTypeIds(ids: readonly string[], moduleSetVersion: number): string[] {
  return [...new Set(ids.filter((id) => controlType(id)?.moduleSetVersion !== moduleSetVersion))];
}
