// The sale contract's refusals of a write that raced the route's prechecks (the routes refuse first with the same codes).

import { isoFromSeconds } from "../../host/db/ledger-types.ts";
import type { RevertRule } from "../../host/mutations/revert-errors.ts";

const iso = (seconds: string) => isoFromSeconds(BigInt(seconds));

export const REVERT_ERRORS: Record<string, RevertRule> = {
  TokenSaleInvalidParameters: {
    code: "TOKEN_SALE_INVALID_PARAMETERS",
    message: () =>
      "The sale's terms are invalid: priceWad and hardCap above 0, softCap at most hardCap, startDate before endDate, endDate in the future",
  },
  TokenSaleNotOpen: {
    code: "TOKEN_SALE_NOT_OPEN",
    message: (a) => `The sale takes purchases from ${iso(a.startDate)} to ${iso(a.endDate)}`,
    details: (a) => ({ startDate: iso(a.startDate), endDate: iso(a.endDate) }),
  },
  TokenSaleHardCapExceeded: {
    code: "TOKEN_SALE_HARD_CAP_EXCEEDED",
    message: (a) => `The purchase exceeds the hard cap: ${a.available} token units are left`,
    details: (a) => ({ available: a.available }),
  },
  TokenSaleZeroAmount: {
    code: "TOKEN_SALE_INVALID_PARAMETERS",
    message: () => "The purchase amount must be above 0",
  },
  TokenSaleNotEnded: {
    code: "TOKEN_SALE_NOT_ENDED",
    message: (a) => `The sale ends at ${iso(a.endDate)}; withdrawals open after it`,
    details: (a) => ({ endDate: iso(a.endDate) }),
  },
  TokenSaleNothingToWithdraw: {
    code: "TOKEN_SALE_NOTHING_TO_WITHDRAW",
    message: (a) => `Nothing in this sale is due to ${a.account}`,
    details: (a) => ({ account: a.account }),
  },
};
