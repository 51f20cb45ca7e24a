// The query and path parameters of the statistics' range and preset routes.
import { z } from "@hono/zod-openapi";
import {
  bucketCount,
  INTERVALS,
  MAX_BUCKETS,
  PRESET_NAMES,
  type Preset,
  STEP_SECONDS,
} from "../../domain/statistics/time-range.ts";
import { IsoTimestampSchema } from "../../host/http/schemas.ts";

/** The query of a range route: all three required; `from` after `to` is refused (naming `from`), as are huge series. */
export const RangeQuerySchema = z
  .object({
    interval: z.enum(INTERVALS).openapi({ description: "Bucket size" }),
    from: IsoTimestampSchema.openapi({ description: "Start of the window (ISO 8601)" }),
    to: IsoTimestampSchema.openapi({ description: "End of the window (ISO 8601), not before from" }),
  })
  .superRefine((range, ctx) => {
    // Runs even when a field failed: compare only parsed values.
    if (!(range.from instanceof Date && range.to instanceof Date && range.interval in STEP_SECONDS)) return;
    if (range.from.getTime() > range.to.getTime()) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "must not be after to" });
    } else if (bucketCount(range) > MAX_BUCKETS) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `the window holds more than ${MAX_BUCKETS} buckets` });
    }
  });

export const PresetParamsSchema = z.object({
  preset: z.enum(PRESET_NAMES as [Preset, ...Preset[]]).openapi({ param: { name: "preset", in: "path" } }),
});
