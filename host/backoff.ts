// Exponential backoff, shared by the supervisor's restarts (scripts/infra/supervisor.ts) and the loops that wait for
// the database to come back (host/db/outage.ts).
export interface BackoffPolicy {
  /** The wait before the first retry. */
  initialMs: number;
  /** The longest wait: doubling stops here. */
  maxMs: number;
}

/** A crashed part's restarts: 0.5 s, 1 s, 2 s ... 30 s. */
export const RESTART_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 30_000 };

/** The wait before retry number `attempt` (1 for the first): initialMs doubled per earlier attempt, at most maxMs. */
export function backoffDelay(policy: BackoffPolicy, attempt: number): number {
  const doublings = Math.max(0, attempt - 1);
  // 2 ** 60 is still finite; past that the cap applies anyway.
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(doublings, 60));
}
