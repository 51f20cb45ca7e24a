// The one map from a contract's revert to the API error a caller gets: a refused write (Prefer: wait, or a
// pre-check) answers with the registry code that names the rule (SVC-1106 for a frozen balance, the compliance
// module's refusal, a missing contract role), not a generic CONTRACT_ERROR.
import { roleName } from "../chain/role-names.ts";
import { ApiError } from "../errors/api-error.ts";
import { ERROR_REGISTRY, type ErrorCode } from "../errors/registry.ts";
import type { ContractError } from "./contract-errors.ts";

type Args = Record<string, string>;

export interface RevertRule {
  code: ErrorCode;
  /** One of the code's statuses, when not its first. */
  status?: number;
  message: (args: Args) => string;
  /** Route fields beside `contractError`, e.g. the compliance module, its typeId and reason. */
  details?: (args: Args) => Record<string, unknown>;
}

/** Revert names (custom errors of the platform's contracts) with their own registry code. */
const RULES: Record<string, RevertRule> = {
  InsufficientUnfrozenBalance: {
    code: "TOKEN_FROZEN_BALANCE_EXCEEDED",
    message: (a) => `The amount ${a.requested} exceeds the unfrozen balance ${a.available} of ${a.account}`,
    details: (a) => ({ account: a.account, available: a.available, requested: a.requested }),
  },
  ComplianceCheckFailed: {
    code: "COMPLIANCE_CHECK_FAILED",
    message: (a) => `The compliance module ${a.typeId} (${a.module}) refuses the operation: ${a.reason}`,
    details: (a) => ({ module: a.module, typeId: a.typeId, reason: a.reason }),
  },
  TokenPaused: { code: "TOKEN_PAUSED", message: () => "The token is paused" },
  TokenNotPaused: { code: "TOKEN_NOT_PAUSED", message: () => "The token is not paused" },
  AccountFrozen: {
    code: "TOKEN_ACCOUNT_FROZEN",
    message: (a) => `The address ${a.account} is frozen for this token`,
    details: (a) => ({ account: a.account }),
  },
  ERC20InsufficientBalance: {
    code: "TOKEN_INSUFFICIENT_BALANCE",
    message: (a) => `The amount ${a.needed} exceeds the balance ${a.balance} of ${a.sender}`,
    details: (a) => ({ account: a.sender, balance: a.balance, requested: a.needed }),
  },
  AccessControlUnauthorizedAccount: {
    code: "CONTRACT_ROLE_MISSING",
    message: (a) => `The signing wallet ${a.account} does not hold ${roleName(a.neededRole)} on the contract`,
    details: (a) => ({ account: a.account, requiredRole: roleName(a.neededRole), roleId: a.neededRole }),
  },
  PermitNotEnabled: {
    code: "TOKEN_FEATURE_NOT_ATTACHED",
    message: () => "The token does not have the permit feature",
    details: () => ({ featureId: "permit" }),
  },
  MetadataNotFound: {
    code: "CONTRACT_ERROR",
    status: 404,
    message: (a) => `The token has no metadata key ${JSON.stringify(a.key)}`,
  },
  DocumentNotFound: {
    code: "CONTRACT_ERROR",
    status: 404,
    message: (a) => `The token has no document ${a.name}`,
  },
};

/** Why the revert happened and what to do, for the transaction request's `contractError`. */
export function explainRevert(errorName: string): { why: string; fix: string } | undefined {
  const rule = RULES[errorName];
  if (!rule || rule.code === "CONTRACT_ERROR") return undefined;
  const { why, fix } = ERROR_REGISTRY[rule.code];
  return { why, fix };
}

/** The registry code a revert maps to (CONTRACT_ERROR when it has none of its own). */
export function revertCode(contractError: ContractError): ErrorCode {
  return RULES[contractError.id]?.code ?? "CONTRACT_ERROR";
}

/**
 * The ApiError for a decoded revert. `details` (e.g. transactionId and statusUrl of the refused request) and
 * `contractError` are carried as route fields; `fallbackMessage` is used when the revert has no rule of its own.
 */
export function revertError(
  contractError: ContractError,
  options: { details?: Record<string, unknown>; fallbackMessage?: string } = {},
): ApiError {
  const rule = RULES[contractError.id];
  const args = contractError.args;
  return new ApiError(rule?.code ?? "CONTRACT_ERROR", {
    message: rule ? rule.message(args) : (options.fallbackMessage ?? contractError.message),
    ...(rule?.status ? { status: rule.status } : {}),
    details: { ...options.details, ...(rule?.details?.(args) ?? {}), contractError },
  });
}
