import { describe, expect, it } from "vitest";
import { backoffDelay, RESTART_BACKOFF } from "./backoff.ts";

describe("backoffDelay", () => {
  it("doubles from the initial wait and stops at the longest", () => {
    const delays = Array.from({ length: 9 }, (_, i) => backoffDelay(RESTART_BACKOFF, i + 1));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(backoffDelay(RESTART_BACKOFF, 5000)).toBe(30_000);
    expect(backoffDelay({ initialMs: 100, maxMs: 5000 }, 0)).toBe(100);
  });
});
