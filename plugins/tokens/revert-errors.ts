// The token contracts' refusals that answer with a token code of their own (host/mutations/revert-errors.ts maps a
// decoded revert through these); any other revert answers CONTRACT_ERROR.
import type { RevertRule } from "../../host/mutations/revert-errors.ts";

export const REVERT_ERRORS: Record<string, RevertRule> = {
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
  ReceiverNotVerified: {
    code: "TOKEN_RECEIVER_NOT_VERIFIED",
    message: (a) => `The receiver ${a.receiver} is not verified in the system's identity registry`,
    details: (a) => ({ receiver: a.receiver }),
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
