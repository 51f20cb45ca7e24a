import { describe, expect, it } from "vitest";
import { FIRST_WANT, MOST_WANTED, nextWant } from "./rate-limit.ts";

describe("nextWant", () => {
  const lease = (granted: number, left: number, endsAt: number) => ({ granted, left, bucket: "1", endsAt });

  it("doubles for a key whose lease ran out within its second, up to the most wanted", () => {
    expect(nextWant(FIRST_WANT, lease(64, 0, 2_000), 1_500)).toBe(128);
    expect(nextWant(MOST_WANTED, lease(512, 0, 2_000), 1_500)).toBe(MOST_WANTED);
  });

  it("halves for a key that left more than half of its lease unused, down to the first want", () => {
    expect(nextWant(256, lease(256, 200, 2_000), 2_100)).toBe(128);
    expect(nextWant(FIRST_WANT, lease(64, 60, 2_000), 2_100)).toBe(FIRST_WANT);
  });

  it("keeps the want of a key that used most of a lease that expired, and of a key without one", () => {
    expect(nextWant(128, lease(128, 10, 2_000), 2_100)).toBe(128);
    expect(nextWant(128, undefined, 2_100)).toBe(128);
  });
});
