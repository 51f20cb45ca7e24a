import { describe, expect, it } from "vitest";
import { activityRange, activitySeries, countWindow } from "./activity-metrics.ts";

const NOW = new Date("2026-05-10T15:42:00Z");

describe("activityRange", () => {
  it("defaults to the day preset; hour gives the 24-hour preset", () => {
    expect(activityRange({}, NOW)).toMatchObject({ interval: "day", isPreset: true, to: NOW });
    expect(activityRange({}, NOW).from.toISOString()).toBe("2026-05-04T00:00:00.000Z");
    expect(activityRange({ "range[interval]": "hour" }, NOW).from.toISOString()).toBe("2026-05-09T16:00:00.000Z");
  });

  it("takes an explicit window as not a preset, and refuses isPreset=true with one, or too many buckets", () => {
    const from = new Date("2026-05-10T10:00:00Z");
    expect(activityRange({ "range[interval]": "hour", "range[from]": from }, NOW)).toMatchObject({
      from,
      to: NOW,
      isPreset: false,
    });
    expect(() => activityRange({ "range[from]": from, "range[isPreset]": "true" }, NOW)).toThrow();
    expect(() => activityRange({ "range[interval]": "hour", "range[from]": new Date("2000-01-01Z") }, NOW)).toThrow();
  });

  it("keeps from after to (the series is empty, not an error)", () => {
    const range = activityRange({ "range[from]": NOW, "range[to]": new Date("2026-05-01Z") }, NOW);
    expect(countWindow(range)).toBeNull();
    expect(activitySeries(range, new Map())).toMatchObject({ timeSeries: [], count: 0 });
  });
});

describe("activitySeries", () => {
  it("fills every bucket, 0 when quiet, and totals the window", () => {
    const range = { interval: "hour" as const, from: new Date("2026-05-10T12:30:00Z"), to: NOW, isPreset: false };
    const start = Date.parse("2026-05-10T13:00:00Z") / 1000;
    const series = activitySeries(range, new Map([[start, 4]]));
    expect(series.timeSeries).toEqual([
      { timestamp: "2026-05-10T12:00:00.000Z", count: 0 },
      { timestamp: "2026-05-10T13:00:00.000Z", count: 4 },
      { timestamp: "2026-05-10T14:00:00.000Z", count: 0 },
      { timestamp: "2026-05-10T15:00:00.000Z", count: 0 },
    ]);
    expect(series.count).toBe(4);
    expect(countWindow(range)).toEqual({
      from: Date.parse("2026-05-10T12:30:00Z") / 1000,
      to: NOW.getTime() / 1000,
      step: 3600,
    });
  });
});
