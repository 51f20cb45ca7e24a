// What one delivery attempt's answer makes of the delivery: pure, so every branch is tested beside it.
import { backoffMs, MAX_ATTEMPTS, retryAfterMs } from "./backoff.ts";
import type { PostOutcome } from "./post.ts";

export type AttemptDecision =
  /** A 2xx, and the type wants no receipt. */
  | { kind: "succeeded" }
  /** A 2xx, and the type wants a counter-signed receipt: delivered again at `nextAttemptAt` (null: never) until one. */
  | { kind: "awaiting-receipt"; nextAttemptAt: Date | null }
  /** 410 Gone: the endpoint is disabled and its deliveries fail. */
  | { kind: "gone" }
  /** The attempts ran out. */
  | { kind: "failed" }
  /** Tried again at `nextAttemptAt`: the receiver's Retry-After on 429 and 503, else the backoff. */
  | { kind: "retrying"; nextAttemptAt: Date };

export function decideAttempt(
  outcome: PostOutcome,
  options: { tried: number; receiptRequired: boolean; retryBaseSeconds: number; now?: number; random?: () => number },
): AttemptDecision {
  const { tried, receiptRequired, retryBaseSeconds } = options;
  const now = options.now ?? Date.now();
  const after = (ms: number) => new Date(now + ms);
  if (outcome.error === null) {
    if (!receiptRequired) return { kind: "succeeded" };
    const again = tried >= MAX_ATTEMPTS ? null : after(backoffMs(tried, retryBaseSeconds, options.random));
    return { kind: "awaiting-receipt", nextAttemptAt: again };
  }
  if (outcome.responseStatus === 410) return { kind: "gone" };
  if (tried >= MAX_ATTEMPTS) return { kind: "failed" };
  const throttled = outcome.responseStatus === 429 || outcome.responseStatus === 503;
  const honoured = throttled ? retryAfterMs(outcome.retryAfter, now) : null;
  return { kind: "retrying", nextAttemptAt: after(honoured ?? backoffMs(tried, retryBaseSeconds, options.random)) };
}
