import { describe, expect, it } from "vitest";
import { parseTimestamp } from "./values.ts";

describe("parseTimestamp", () => {
  it("bounds the host's one timestamp parser, after the offset is applied", () => {
    expect(parseTimestamp("0000-01-01T00:00:00Z")).toBeUndefined();
    expect(parseTimestamp("0001-01-01T00:30:00+01:00")).toBeUndefined();
    expect(parseTimestamp("9999-12-31T23:30:00-01:00")).toBeUndefined();
    expect(parseTimestamp("0001-01-01")?.toISOString()).toBe("0001-01-01T00:00:00.000Z");
    expect(parseTimestamp("9999-12-31T23:59:59Z")?.toISOString()).toBe("9999-12-31T23:59:59.000Z");
  });
});
