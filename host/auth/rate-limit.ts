// The per-key request window behind 429 auth.apikey.THROTTLED: a fixed window per key, in this process.
// With several host replicas each holds its own window, so the allowance scales with the replica count.
export interface RateWindow {
  /** Counts one request; when the allowance is used up, says how many seconds until the window resets. */
  take(key: string, now?: number): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function createRateWindow(limit: number, windowSeconds: number): RateWindow {
  const windows = new Map<string, { startedAt: number; count: number }>();
  const windowMs = windowSeconds * 1000;
  return {
    take(key, now = Date.now()) {
      let w = windows.get(key);
      if (!w || now - w.startedAt >= windowMs) {
        if (windows.size > 100_000) windows.clear(); // bound memory against key churn
        w = { startedAt: now, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      if (w.count <= limit) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.startedAt + windowMs - now) / 1000)) };
    },
  };
}
