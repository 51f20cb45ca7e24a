import { describe, expect, it } from "vitest";
import { lockoutSeconds } from "./failure-counters.ts";

describe("lockouts", () => {
  const policy = { freeFailures: 5, baseSeconds: 2, maxSeconds: 900, resetSeconds: 3600 };

  it("none within the free failures, then the base, doubling with each failure up to the maximum", () => {
    expect([1, 5].map((n) => lockoutSeconds(n, policy))).toEqual([0, 0]);
    expect([6, 7, 8, 9].map((n) => lockoutSeconds(n, policy))).toEqual([2, 4, 8, 16]);
    expect(lockoutSeconds(15, policy)).toBe(900);
    expect(lockoutSeconds(1_000_000, policy)).toBe(900); // no overflow however many
  });

  it("a fixed window: base equal to the maximum locks for the window after N failures", () => {
    const window = { freeFailures: 100, baseSeconds: 300, maxSeconds: 300, resetSeconds: 300 };
    expect([100, 101, 150].map((n) => lockoutSeconds(n, window))).toEqual([0, 300, 300]);
  });
});
