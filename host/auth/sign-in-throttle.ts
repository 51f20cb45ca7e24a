// Sign-in and second-factor attempts are counted before they are verified (so a burst of parallel guesses cannot
// slip past a lockout), per account and per source address; a success takes its count back and clears the account.
import type { PlatformDb } from "../db/database.ts";
import { ApiError } from "../errors/api-error.ts";
import { countFailure, forgetFailures, pruneFailures, type Subject, uncountFailure } from "./failure-counters.ts";
import { throttled } from "./throttled.ts";

/** One attempt in a thousand also drops rows nobody counts any more. */
const PRUNE_EVERY = 1000;

export interface SignInAttempt {
  /** The credentials were right: account subjects forget their failures, address subjects take this attempt back. */
  succeeded(): Promise<void>;
}

/**
 * Counts an attempt on every subject; 429 auth.signin.THROTTLED with Retry-After while any of them is locked out
 * (even when the credentials would be right). 503 AUTH_STORE_UNAVAILABLE when the counters cannot be reached.
 */
export async function attemptSignIn(db: PlatformDb, subjects: Subject[]): Promise<SignInAttempt> {
  let results: Awaited<ReturnType<typeof countFailure>>[];
  try {
    results = await Promise.all(subjects.map((subject) => countFailure(db, subject)));
  } catch {
    throw new ApiError("AUTH_STORE_UNAVAILABLE");
  }
  if (Math.random() * PRUNE_EVERY < 1) {
    const oldest = Math.max(...subjects.map((s) => s.policy.resetSeconds + s.policy.maxSeconds));
    void pruneFailures(db, oldest).catch(() => {});
  }
  const refused = results.filter((r) => !r.counted);
  if (refused.length > 0) {
    // A refused attempt is no failure: take it back where it was counted.
    await Promise.all(subjects.filter((_, i) => results[i]?.counted).map((s) => uncountFailure(db, s))).catch(() => {});
    throw throttled("auth.signin.THROTTLED", Math.max(...refused.map((r) => r.lockedSeconds)));
  }
  return {
    async succeeded() {
      await Promise.all(
        subjects.map((s) => (s.scope.endsWith(":account") ? forgetFailures(db, s) : uncountFailure(db, s))),
      );
    },
  };
}
