// The registry's refusals of a registration that raced the route's inspection (the route refuses an ineligible
// address before queueing with the same codes: eligibility.ts).
import type { RevertRule } from "../../host/mutations/revert-errors.ts";

export const REVERT_ERRORS: Record<string, RevertRule> = {
  ExternalTokenAlreadyRegistered: {
    code: "RESOURCE_ALREADY_EXISTS",
    message: (a) => `The token ${a.token} is already registered in the system`,
    details: (a) => ({ tokenAddress: a.token, blockingReason: "already-registered" }),
  },
  ExternalTokenNoCode: {
    code: "EXTERNAL_TOKEN_NOT_ELIGIBLE",
    message: (a) => `The address ${a.token} has no code`,
    details: (a) => ({ tokenAddress: a.token, blockingReason: "no-code" }),
  },
  ExternalTokenSystemManaged: {
    code: "EXTERNAL_TOKEN_NOT_ELIGIBLE",
    message: (a) => `The address ${a.token} is one of the system's own contracts or tokens`,
    details: (a) => ({ tokenAddress: a.token, blockingReason: "system-managed" }),
  },
};
