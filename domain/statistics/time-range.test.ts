import { describe, expect, it } from "vitest";
import { bucketStarts, presetRange } from "./time-range.ts";

const at = (iso: string) => new Date(iso);
const iso = (unix: number) => new Date(unix * 1000).toISOString();

describe("statistics windows", () => {
  it("buckets an explicit window by whole UTC hours or days, from the one holding from to the one holding to", () => {
    const hours = bucketStarts({ interval: "hour", from: at("2026-01-01T10:30:00Z"), to: at("2026-01-01T12:00:00Z") });
    expect(hours.map(iso)).toEqual([
      "2026-01-01T10:00:00.000Z",
      "2026-01-01T11:00:00.000Z",
      "2026-01-01T12:00:00.000Z",
    ]);
    const days = bucketStarts({ interval: "day", from: at("2026-01-30T23:00:00Z"), to: at("2026-02-01T01:00:00Z") });
    expect(days.map(iso)).toEqual(["2026-01-30T00:00:00.000Z", "2026-01-31T00:00:00.000Z", "2026-02-01T00:00:00.000Z"]);
    expect(
      bucketStarts({ interval: "day", from: at("2026-01-01T05:00:00Z"), to: at("2026-01-01T05:00:00Z") }),
    ).toHaveLength(1);
  });

  it("resolves trailing24Hours to 24 hourly and trailing7Days to 7 daily buckets ending now", () => {
    const now = at("2026-03-10T15:42:00Z");
    const hourly = presetRange("trailing24Hours", now);
    expect(hourly).toEqual({ interval: "hour", from: at("2026-03-09T16:00:00Z"), to: now, isPreset: true });
    expect(bucketStarts(hourly)).toHaveLength(24);
    const daily = presetRange("trailing7Days", now);
    expect(daily).toEqual({ interval: "day", from: at("2026-03-04T00:00:00Z"), to: now, isPreset: true });
    expect(bucketStarts(daily)).toHaveLength(7);
  });
});
