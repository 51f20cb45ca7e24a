import { describe, expect, it } from "vitest";
import { MAX_BUCKETS } from "../../domain/statistics/time-range.ts";
import { RangeQuerySchema } from "./range-params.ts";

const at = (iso: string) => new Date(iso);

describe("statistics range queries", () => {
  it("validates a range query: interval, ISO timestamps, from not after to, a bounded number of buckets", () => {
    const ok = RangeQuerySchema.safeParse({ interval: "day", from: "2026-01-01", to: "2026-01-31T00:00:00Z" });
    expect(ok.success && ok.data).toEqual({
      interval: "day",
      from: at("2026-01-01T00:00:00Z"),
      to: at("2026-01-31T00:00:00Z"),
    });
    const backwards = RangeQuerySchema.safeParse({ interval: "day", from: "2026-02-01", to: "2026-01-01" });
    expect(backwards.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["from", "must not be after to"],
    ]);
    const huge = RangeQuerySchema.safeParse({ interval: "hour", from: "2020-01-01", to: "2026-01-01" });
    expect(huge.error?.issues[0].message).toBe(`the window holds more than ${MAX_BUCKETS} buckets`);
    expect(RangeQuerySchema.safeParse({ interval: "week", from: "2026-01-01", to: "2026-01-02" }).success).toBe(false);
    expect(RangeQuerySchema.safeParse({ interval: "day", from: "yesterday", to: "2026-01-02" }).success).toBe(false);
    expect(RangeQuerySchema.safeParse({ interval: "day", to: "2026-01-02" }).success).toBe(false);
  });
});
