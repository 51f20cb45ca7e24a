// The settlement contracts' refusals (a write that raced the route's precheck, or one sent without it).
import type { RevertRule } from "../../host/mutations/revert-errors.ts";

const iso = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();

export const REVERT_ERRORS: Record<string, RevertRule> = {
  XvPSettlementNoFlows: { code: "XVP_SETTLEMENT_INVALID", message: () => "The settlement has no flows" },
  XvPSettlementInvalidFlow: {
    code: "XVP_SETTLEMENT_INVALID",
    message: (a) => `Flow ${a.index} is invalid`,
    details: (a) => ({ flowIndex: Number(a.index) }),
  },
  XvPSettlementCutoffInPast: {
    code: "XVP_SETTLEMENT_INVALID",
    message: (a) => `The cutoff ${iso(a.cutoff)} is not in the future`,
    details: (a) => ({ cutoffDate: iso(a.cutoff) }),
  },
  XvPSettlementNotParty: {
    code: "XVP_SETTLEMENT_NOT_PARTY",
    message: (a) => `${a.account} takes no part in the settlement`,
    details: (a) => ({ signer: a.account }),
  },
  XvPSettlementAlreadyExecuted: {
    code: "XVP_SETTLEMENT_EXECUTED",
    message: () => "The settlement is already executed",
  },
  XvPSettlementAlreadyCancelled: { code: "XVP_SETTLEMENT_CANCELLED", message: () => "The settlement is cancelled" },
  XvPSettlementCutoffPassed: {
    code: "XVP_SETTLEMENT_EXPIRED",
    message: (a) => `The settlement's cutoff ${iso(a.cutoff)} has passed`,
    details: (a) => ({ cutoffDate: iso(a.cutoff) }),
  },
  XvPSettlementNotApproved: {
    code: "XVP_SETTLEMENT_NOT_APPROVED",
    message: (a) => `Not approved yet by ${a.party}`,
    details: (a) => ({ missingApprovals: [a.party] }),
  },
  XvPSettlementSecretInvalid: {
    code: "XVP_SETTLEMENT_SECRET_INVALID",
    message: () => "The secret does not open the settlement's hashlock",
  },
};
