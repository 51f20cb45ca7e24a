// The monitoring routes' time window: `from` inclusive, `to` exclusive, `from` before `to`, at most the route's
// range (7, 31 or 30 days). Both optional: `to` defaults to now, `from` to a day (at most the range) before `to`.
import { z } from "@hono/zod-openapi";
import { IsoTimestampSchema } from "../../host/http/schemas.ts";

const DAY_MS = 86_400_000;

export interface Window {
  from: Date;
  to: Date;
}

export function windowOf(query: { from?: Date; to?: Date }, maxDays: number): Window {
  const to = query.to ?? new Date();
  const from = query.from ?? new Date(to.getTime() - Math.min(1, maxDays) * DAY_MS);
  return { from, to };
}

export const windowFields = {
  from: IsoTimestampSchema.optional().openapi({ description: "Start, inclusive (ISO 8601; default: a day before to)" }),
  to: IsoTimestampSchema.optional().openapi({ description: "End, exclusive (ISO 8601; default: now)" }),
};

/** A query schema of `fields` plus from/to, refusing an inverted or empty window and one longer than `maxDays`. */
export function windowQuery<T extends z.ZodRawShape>(fields: T, maxDays: number) {
  return z.object({ ...windowFields, ...fields }).superRefine((query, issues) => {
    const { from, to } = query as { from?: unknown; to?: unknown };
    // Runs even when a field failed: compare only parsed values.
    if ((from !== undefined && !(from instanceof Date)) || (to !== undefined && !(to instanceof Date))) return;
    const window = windowOf(query as { from?: Date; to?: Date }, maxDays);
    if (window.from.getTime() >= window.to.getTime()) {
      issues.addIssue({ code: "custom", path: ["from"], message: "must be before to" });
    } else if (window.to.getTime() - window.from.getTime() > maxDays * DAY_MS) {
      issues.addIssue({ code: "custom", path: ["from"], message: `the range from..to exceeds ${maxDays} days` });
    }
  });
}

export const RequestTypeSchema = z.enum(["rest", "rpc"]);
