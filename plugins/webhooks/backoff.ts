// When a failed delivery is tried again: exponential backoff with jitter (12 retries from WEBHOOK_RETRY_BASE_SECONDS,
// about three days at the default 60 s), or the receiver's Retry-After on 429 and 503.

/** Attempts in all (the first and 12 retries); after the last failure the delivery is `failed`. */
export const MAX_ATTEMPTS = 13;
/** Retry-After is honoured up to this (a receiver cannot park a delivery for longer). */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** The wait after failed attempt `attempt` (1-based): base·2^(attempt-1), jittered ±20 %. */
export function backoffMs(attempt: number, baseSeconds: number, random = Math.random): number {
  const nominal = baseSeconds * 1000 * 2 ** (attempt - 1);
  return Math.round(nominal * (0.8 + 0.4 * random()));
}

/** Retry-After as delay-seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}
