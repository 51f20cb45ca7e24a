// Exponential backoff (and the pause a stop interrupts), shared by the supervisor's restarts (scripts/infra/supervisor.ts) and the loops that wait for
// the database to come back (host/db/outage.ts).
export interface BackoffPolicy {
  /** The wait before the first retry. */
  initialMs: number;
  /** The longest wait: doubling stops here. */
  maxMs: number;
}

/** The wait before retry number `attempt` (1 for the first): initialMs doubled per earlier attempt, at most maxMs. */
export function backoffDelay(policy: BackoffPolicy, attempt: number): number {
  const doublings = Math.max(0, attempt - 1);
  // 2 ** 60 is still finite; past that the cap applies anyway.
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(doublings, 60));
}

/** A pause a stop can cut short: a retry loop sleeps in it, and stopping wakes it at once. */
export function interruptibleSleep() {
  let wake = () => {};
  return {
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => wake(),
  };
}
