// The one map from a contract's revert to the API error a caller gets: a refused write (Prefer: wait, or a
// pre-check) answers with the registry code that names the rule (SVC-1106 for a frozen balance, the compliance
// module's refusal, a missing contract role), not a generic CONTRACT_ERROR.
import { roleName } from "../chain/role-names.ts";
import { ApiError } from "../errors/api-error.ts";
import { type ErrorCode, errorDefinition } from "../errors/registry.ts";
import { createNameRegistry } from "../name-registry.ts";
import { contractErrorCode } from "./contract-error-codes.ts";
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

/**
 * Reverts of the access control every platform contract shares; the plugins declare the rest
 * (`definePlugin({ revertErrors })`, e.g. the tokens plugin's TokenPaused), registered at start.
 */
export const CORE_REVERT_RULES: Record<string, RevertRule> = {
  AccessControlUnauthorizedAccount: {
    code: "CONTRACT_ROLE_MISSING",
    message: (a) => `The signing wallet ${a.account} does not hold ${roleName(a.neededRole)} on the contract`,
    details: (a) => ({ account: a.account, requiredRole: roleName(a.neededRole), roleId: a.neededRole }),
  },
};

const rules = createNameRegistry<RevertRule>("contract revert", CORE_REVERT_RULES);

/** Adds the composed plugins' revert rules (once per process, by registerPlugins). */
export const registerRevertRules = rules.register;

/** Why the revert happened and what to do, for the transaction request's `contractError`. */
export function explainRevert(errorName: string): { why: string; fix: string } | undefined {
  const rule = rules.find(errorName);
  if (!rule || rule.code === "CONTRACT_ERROR") return undefined;
  const { why, fix } = errorDefinition(rule.code);
  return { why, fix };
}

/** The registry code a revert maps to (CONTRACT_ERROR when it has none of its own). */
export function revertCode(contractError: ContractError): ErrorCode {
  return rules.find(contractError.id)?.code ?? "CONTRACT_ERROR";
}

/**
 * The ApiError for a decoded revert. `details` (e.g. transactionId and statusUrl of the refused request) and
 * `contractError` are carried as route fields; `fallbackMessage` is used when the revert has no rule of its own.
 */
export function revertError(
  contractError: ContractError,
  options: { details?: Record<string, unknown>; fallbackMessage?: string } = {},
): ApiError {
  const rule = rules.find(contractError.id);
  const args = contractError.args;
  return new ApiError(rule?.code ?? "CONTRACT_ERROR", {
    message: rule ? rule.message(args) : (options.fallbackMessage ?? contractError.message),
    ...(rule?.status ? { status: rule.status } : {}),
    // dalpCode, retryable and suggestedAction as route fields: a client branches on them (not on the message).
    details: {
      ...options.details,
      ...(rule?.details?.(args) ?? {}),
      ...contractErrorCode(contractError.id),
      contractError,
    },
  });
}
