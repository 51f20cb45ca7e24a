import { describe, expect, it } from "vitest";
import { FIRST_WANT, mostWanted, nextWant } from "./rate-limit.ts";

describe("nextWant", () => {
  const lease = (granted: number, left: number, endsAt: number) => ({ granted, left, bucket: "1", endsAt });
  const most = 512;

  it("doubles for a key whose lease ran out within its second, up to the most wanted", () => {
    expect(nextWant(FIRST_WANT, lease(64, 0, 2_000), 1_500, most)).toBe(128);
    expect(nextWant(most, lease(512, 0, 2_000), 1_500, most)).toBe(most);
  });

  it("halves for a key that left more than half of its lease unused, down to the first want", () => {
    expect(nextWant(256, lease(256, 200, 2_000), 2_100, most)).toBe(128);
    expect(nextWant(FIRST_WANT, lease(64, 60, 2_000), 2_100, most)).toBe(FIRST_WANT);
  });

  it("keeps the want of a key that used most of a lease that expired, and of a key without one", () => {
    expect(nextWant(128, lease(128, 10, 2_000), 2_100, most)).toBe(128);
    expect(nextWant(128, undefined, 2_100, most)).toBe(128);
  });
});

describe("mostWanted", () => {
  it("is a sixteenth of the allowance in whole leases of 64, between 64 and 512", () => {
    expect(mostWanted(1_200)).toBe(64); // the default limit: leases of 64, as before
    expect(mostWanted(4_096)).toBe(256);
    expect(mostWanted(1_000_000)).toBe(512);
    expect(mostWanted(20)).toBe(64);
  });
});
