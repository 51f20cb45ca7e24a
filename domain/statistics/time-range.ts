// The time window of a statistics series: an explicit range (interval, from, to) or a preset, and its buckets.
// Shared by the statistics and the activity metrics; the routes' query schemas live with their plugins.
import { z } from "zod";

export const INTERVALS = ["hour", "day"] as const;
export type Interval = (typeof INTERVALS)[number];

/** trailing24Hours: 24 hourly buckets ending with the current hour; trailing7Days: 7 daily buckets ending today. */
export const PRESETS = {
  trailing24Hours: { interval: "hour", buckets: 24 },
  trailing7Days: { interval: "day", buckets: 7 },
} as const;
export type Preset = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as Preset[];

export const STEP_SECONDS: Record<Interval, number> = { hour: 3600, day: 86_400 };

/** A series never has more points than this (an hourly series covers 41 days, a daily one 2.7 years). */
export const MAX_BUCKETS = 1000;

export interface StatRange {
  interval: Interval;
  from: Date;
  to: Date;
  isPreset: boolean;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const alignDown = (unix: number, step: number) => Math.floor(unix / step) * step;

/** Bucket starts (unix seconds, aligned to UTC hours or days) from the one holding `from` to the one holding `to`. */
export function bucketStarts(range: Pick<StatRange, "interval" | "from" | "to">): number[] {
  const step = STEP_SECONDS[range.interval];
  const first = alignDown(seconds(range.from), step);
  const last = alignDown(seconds(range.to), step);
  const starts: number[] = [];
  for (let at = first; at <= last; at += step) starts.push(at);
  return starts;
}

export function bucketCount(range: Pick<StatRange, "interval" | "from" | "to">): number {
  const step = STEP_SECONDS[range.interval];
  return (alignDown(seconds(range.to), step) - alignDown(seconds(range.from), step)) / step + 1;
}

/** A preset's window at `now`: `from` is the start of its first bucket, `to` is now. */
export function presetRange(preset: Preset, now = new Date()): StatRange {
  const { interval, buckets } = PRESETS[preset];
  const step = STEP_SECONDS[interval];
  const first = alignDown(seconds(now), step) - (buckets - 1) * step;
  return { interval, from: new Date(first * 1000), to: now, isPreset: true };
}

export const StatRangeSchema = z
  .object({
    interval: z.enum(INTERVALS),
    from: z.string().meta({ format: "date-time" }),
    to: z.string().meta({ format: "date-time" }),
    isPreset: z.boolean(),
  })
  .meta({ id: "StatRange" }); // the OpenAPI component name, as .openapi("StatRange") would give

export function toStatRange(range: StatRange) {
  return { ...range, from: range.from.toISOString(), to: range.to.toISOString() };
}
