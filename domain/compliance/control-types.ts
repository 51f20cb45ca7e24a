// The compliance control catalogue: every control type id, its module set (1 legacy, 2 current), category, the
// schema of its `params` JSON and their on-chain encoding. Compliance templates validate against it; token creation
// encodes a template's module params with it (plugins share it through domain/, never through each other).
import type { Hex } from "viem";
import type { z } from "zod";
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
  /** Validates `params` (throws the schema's ZodError) and ABI-encodes them as the module's `bytes params`. */
  encodeParams(params: unknown): Hex;
}

function control<const Id extends string, Params extends z.ZodType>(
  id: Id,
  moduleSetVersion: ModuleSetVersion,
  category: ControlCategory,
  params: Params,
  encode: (params: z.output<Params>) => Hex,
): ControlType<Id, Params> {
  return { id, moduleSetVersion, category, params, encodeParams: (value) => encode(params.parse(value)) };
}

/** Every control type; legacy v1 ids take the same params (and rules) as their v2 twins. */
export const CONTROL_TYPES = [
  control("address-block-list-v2", 2, "Identity", AddressBlockListParams, encodeAddressBlockList),
  control("capital-raise-limit", 2, "Limits", CapitalRaiseLimitParams, encodeCapitalRaiseLimit),
  control("capped-v2", 2, "Limits", CappedParams, encodeCapped),
  control("collateral-v2", 2, "Collateral", CollateralParams, encodeCollateral),
  control("country-allow-list-v2", 2, "Geographic", CountryAllowListParams, encodeCountries),
  control("country-block-list-v2", 2, "Geographic", CountryBlockListParams, encodeCountries),
  control("identity-allow-list-v2", 2, "Identity", IdentityAllowListParams, encodeIdentities),
  control("identity-block-list-v2", 2, "Identity", IdentityBlockListParams, encodeIdentities),
  control("identity-verification-v2", 2, "Identity", IdentityVerificationParams, encodeIdentityVerification),
  control("investor-count-v2", 2, "Limits", InvestorCountParams, encodeInvestorCount),
  control("time-lock-v2", 2, "Transfer", TimeLockParams, encodeTimeLock),
  control("transfer-approval-v2", 2, "Transfer", TransferApprovalParams, encodeTransferApproval),
  control("country-allow-list", 1, "Geographic", CountryAllowListParams, encodeCountries),
  control("investor-count", 1, "Limits", InvestorCountParams, encodeInvestorCount),
  control("transfer-approval", 1, "Transfer", TransferApprovalParams, encodeTransferApproval),
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

/** The ids, in the order given, that do not belong to `moduleSetVersion` (unknown ids included), without repeats. */
export function incompatibleTypeIds(ids: readonly string[], moduleSetVersion: number): string[] {
  return [...new Set(ids.filter((id) => controlType(id)?.moduleSetVersion !== moduleSetVersion))];
}
