import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff.ts";

describe("backoffDelay", () => {
  it("doubles from the initial wait and stops at the longest", () => {
    const policy = { initialMs: 500, maxMs: 30_000 };
    const delays = Array.from({ length: 9 }, (_, i) => backoffDelay(policy, i + 1));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(backoffDelay(policy, 5000)).toBe(30_000);
    expect(backoffDelay({ initialMs: 100, maxMs: 5000 }, 0)).toBe(100);
  });
});
