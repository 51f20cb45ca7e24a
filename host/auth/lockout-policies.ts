// The lockout policies the configuration sets (docs/configuration.md): per account and per source address for
// sign-in and the second factor, and per source address for failed API keys and session cookies.
import type { PluginConfig } from "../plugin.ts";
import type { LockoutPolicy } from "./failure-counters.ts";

export interface LockoutPolicies {
  account: LockoutPolicy;
  address: LockoutPolicy;
  /** N failures within the window lock the address out for the window. */
  credential: LockoutPolicy;
}

export function lockoutPolicies(config: PluginConfig): LockoutPolicies {
  const growing = {
    baseSeconds: config.SIGN_IN_LOCKOUT_BASE_SECONDS,
    maxSeconds: config.SIGN_IN_LOCKOUT_MAX_SECONDS,
    resetSeconds: config.SIGN_IN_FAILURE_RESET_SECONDS,
  };
  const window = config.AUTH_FAILURE_WINDOW_SECONDS;
  return {
    account: { freeFailures: config.SIGN_IN_FREE_FAILURES, ...growing },
    address: { freeFailures: config.SIGN_IN_ADDRESS_FREE_FAILURES, ...growing },
    credential: {
      freeFailures: config.AUTH_FAILURE_LIMIT,
      baseSeconds: window,
      maxSeconds: window,
      resetSeconds: window,
    },
  };
}
