// Activity metrics: the feed's event count per hour or day over a window, every bucket present (0 when quiet).
// Query: range[interval] (hour or day, default day), range[from], range[to], range[isPreset]. Without from and to the
// window is the interval's preset (trailing24Hours or trailing7Days); from after to gives an empty series.
import { z } from "@hono/zod-openapi";
import {
  bucketCount,
  bucketStarts,
  INTERVALS,
  MAX_BUCKETS,
  presetRange,
  STEP_SECONDS,
  type StatRange,
  StatRangeSchema,
  toStatRange,
} from "../../domain/statistics/time-range.ts";
import { badRequest } from "../../host/errors/api-error.ts";
import { IsoTimestampSchema } from "../../host/http/schemas.ts";

export const ActivityRangeQuerySchema = z.object({
  "range[interval]": z.enum(INTERVALS).optional().openapi({ description: "Bucket size (default day)" }),
  "range[from]": IsoTimestampSchema.optional().openapi({ description: "Start of the window (ISO 8601)" }),
  "range[to]": IsoTimestampSchema.optional().openapi({ description: "End of the window (default now)" }),
  "range[isPreset]": z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "false for an explicit window; true (or no from and to) for the interval's preset" }),
});
export type ActivityRangeQuery = z.infer<typeof ActivityRangeQuerySchema>;

export const ActivityMetricsSchema = z
  .object({
    range: StatRangeSchema,
    timeSeries: z.array(z.object({ timestamp: z.string().openapi({ format: "date-time" }), count: z.number().int() })),
    count: z.number().int().openapi({ description: "Events over the whole window" }),
  })
  .openapi("ActivityMetrics");
export type ActivityMetrics = z.infer<typeof ActivityMetricsSchema>;

const PRESET_OF = { hour: "trailing24Hours", day: "trailing7Days" } as const;

/** Pure: the window the query asks for at `now`. */
export function activityRange(query: ActivityRangeQuery, now = new Date()): StatRange {
  const interval = query["range[interval]"] ?? "day";
  const from = query["range[from]"];
  const to = query["range[to]"];
  const explicit = from !== undefined || to !== undefined;
  if (!explicit) return { ...presetRange(PRESET_OF[interval], now), isPreset: query["range[isPreset]"] !== "false" };
  if (query["range[isPreset]"] === "true") {
    throw badRequest("range[isPreset]=true takes no range[from] or range[to]", [
      { path: "range[isPreset]", message: "a preset window has no explicit from or to" },
    ]);
  }
  const end = to ?? now;
  const start = from ?? new Date(presetRange(PRESET_OF[interval], end).from);
  const range = { interval, from: start, to: end, isPreset: false };
  if (start.getTime() <= end.getTime() && bucketCount(range) > MAX_BUCKETS) {
    throw badRequest(`The window holds more than ${MAX_BUCKETS} buckets`, [
      { path: "range[from]", message: `at most ${MAX_BUCKETS} ${interval} buckets` },
    ]);
  }
  return range;
}

/** Pure: the series over `range`, from per-bucket counts; empty when from is after to. */
export function activitySeries(range: StatRange, counts: ReadonlyMap<number, number>): ActivityMetrics {
  const starts = range.from.getTime() > range.to.getTime() ? [] : bucketStarts(range);
  const timeSeries = starts.map((start) => ({
    timestamp: new Date(start * 1000).toISOString(),
    count: counts.get(start) ?? 0,
  }));
  return {
    range: toStatRange(range),
    timeSeries,
    count: timeSeries.reduce((sum, point) => sum + point.count, 0),
  };
}

/** The bounds to count over, [from, to] in unix seconds, and the bucket size; null when the series is empty. */
export function countWindow(range: StatRange): { from: number; to: number; step: number } | null {
  if (range.from.getTime() > range.to.getTime()) return null;
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  return { from: seconds(range.from), to: seconds(range.to), step: STEP_SECONDS[range.interval] };
}
