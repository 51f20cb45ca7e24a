// The schedule contracts' refusals of a write that raced the routes' pre-checks (same codes as the pre-checks).
import type { RevertRule } from "../../host/mutations/revert-errors.ts";

export const REVERT_ERRORS: Record<string, RevertRule> = {
  FixedYieldNothingDue: {
    code: "FIXED_YIELD_NOTHING_DUE",
    message: (a) => `Nothing is due to ${a.holder} from period ${a.nextPeriod} on`,
    details: (a) => ({ holder: a.holder, nextPeriod: a.nextPeriod }),
  },
  FixedYieldUnderfunded: {
    code: "FIXED_YIELD_SCHEDULE_UNDERFUNDED",
    message: (a) => `The schedule holds ${a.available} and ${a.due} is due`,
    details: (a) => ({ due: a.due, available: a.available }),
  },
  FixedYieldNotOwner: {
    code: "FIXED_YIELD_NOT_OWNER",
    message: (a) => `${a.account} is not the schedule's owner`,
    details: (a) => ({ account: a.account }),
  },
  FixedYieldHistoricalBalancesRequired: {
    code: "FIXED_YIELD_TOKEN_INVALID",
    message: (a) => `The token ${a.token} lacks the historical-balances feature`,
    details: (a) => ({ tokenAddress: a.token, reason: "historical-balances-required" }),
  },
  FixedYieldInvalidParameters: {
    code: "INPUT_VALIDATION_FAILED",
    message: () => "The schedule's parameters are invalid (startDate no longer in the future, endDate not after it)",
  },
  FixedYieldZeroAmount: {
    code: "INPUT_VALIDATION_FAILED",
    message: () => "The amount must be above 0",
  },
};
