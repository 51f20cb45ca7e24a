import { describe, expect, it } from "vitest";
import { isStorableTime } from "./storable-time.ts";

describe("storable time", () => {
  it("accepts years 0001..9999 UTC only (PostgreSQL has no year 0)", () => {
    expect(isStorableTime(Date.parse("0001-01-01T00:00:00Z"))).toBe(true);
    expect(isStorableTime(Date.parse("9999-12-31T23:59:59.999Z"))).toBe(true);
    expect(isStorableTime(Date.parse("0000-12-31T23:59:59Z"))).toBe(false);
    expect(isStorableTime(Date.parse("+010000-01-01T00:00:00Z"))).toBe(false);
    expect(isStorableTime(Number.NaN)).toBe(false);
  });
});
