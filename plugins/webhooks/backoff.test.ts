import { describe, expect, it } from "vitest";
import { backoffMs, MAX_ATTEMPTS, retryAfterMs } from "./backoff.ts";

describe("webhook retry schedule", () => {
  it("doubles from the base, jittered ±20 %, spanning about three days at the default base", () => {
    expect(backoffMs(1, 60, () => 0.5)).toBe(60_000);
    expect(backoffMs(2, 60, () => 0.5)).toBe(120_000);
    expect(backoffMs(1, 60, () => 0)).toBe(48_000);
    expect(backoffMs(1, 60, () => 1)).toBe(72_000);
    let total = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) total += backoffMs(attempt, 60, () => 0.5);
    expect(total / 86_400_000).toBeGreaterThan(2.5);
    expect(total / 86_400_000).toBeLessThan(3.5);
  });

  it("reads Retry-After as seconds or an HTTP date, capped at a day", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("999999", now)).toBe(86_400_000);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
