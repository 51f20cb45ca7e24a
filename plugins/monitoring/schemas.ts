// The monitoring routes' query and response shapes (zod, so the OpenAPI document describes them).
import { z } from "@hono/zod-openapi";
import { decodeCursor } from "./cursor.ts";
import { RequestTypeSchema, windowQuery } from "./window.ts";

/** The spec's ranges and limits ("monitoring range", "monitoring limits"). */
export const MAX_DAYS = { summary: 7, timeline: 31, endpointMetrics: 7, requestLogs: 7, topErrors: 30 } as const;

const limit = (max: number, fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .openapi({ description: `1 to ${max}` });
const EndpointIdSchema = z.string().regex(/^ep_[0-9a-f]{16}$/, "an endpointId (ep_ and 16 hex digits)");
const MethodSchema = z
  .string()
  .transform((m) => m.toUpperCase())
  .pipe(z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]));

export const SummaryQuery = windowQuery({ requestType: RequestTypeSchema.optional() }, MAX_DAYS.summary);

export const TimelineQuery = windowQuery(
  { granularity: z.enum(["hour", "day"]).default("hour"), endpointId: EndpointIdSchema.optional() },
  MAX_DAYS.timeline,
);

export const EndpointMetricsQuery = windowQuery(
  {
    orderBy: z.enum(["requestCount", "avgDurationMs", "errorRate"]).default("requestCount"),
    method: MethodSchema.optional(),
    endpoint: z
      .string()
      .max(512)
      .optional()
      .openapi({ description: "Route template, e.g. /api/v2/tokens/{tokenAddress}" }),
    tag: z.string().max(64).optional(),
    requestType: RequestTypeSchema.optional(),
    limit: limit(100, 50),
    offset: z.coerce.number().int().min(0).max(10_000).default(0),
  },
  MAX_DAYS.endpointMetrics,
);

export const RequestLogsQuery = windowQuery(
  {
    endpointId: EndpointIdSchema.optional(),
    statusCode: z.coerce.number().int().min(100).max(599).optional(),
    statusClass: z.enum(["2xx", "4xx", "5xx"]).optional(),
    endpoint: z
      .string()
      .max(512)
      .optional()
      .openapi({ description: "Route template, e.g. /api/v2/tokens/{tokenAddress}" }),
    method: MethodSchema.optional(),
    requestType: RequestTypeSchema.optional(),
    cursor: z
      .string()
      .max(512)
      .refine((c) => decodeCursor(c) !== undefined, "not a cursor this route gave (use nextCursor as is)")
      .optional()
      .openapi({ description: "The previous page's nextCursor" }),
    limit: limit(100, 50),
  },
  MAX_DAYS.requestLogs,
);

export const TopErrorsQuery = windowQuery(
  { requestType: RequestTypeSchema.optional(), limit: limit(20, 10) },
  MAX_DAYS.topErrors,
);

export const LogIdParams = z.object({ id: z.string().min(1).max(64) });

const FacetBuckets = z.array(z.object({ value: z.string().nullable(), count: z.number().int() }));

export const SummarySchema = z
  .object({
    totalRequests: z.number().int(),
    errorRate: z.number().openapi({ description: "Fraction 0 to 1 of 4xx and 5xx answers" }),
    serverErrorRate: z.number().optional(),
    clientErrorRate: z.number().optional(),
    avgDurationMs: z.number(),
    p95DurationMs: z.number().nullable(),
    error4xxCount: z.number().int(),
    error5xxCount: z.number().int(),
  })
  .openapi("MonitoringSummary");

export const TimelineSchema = z
  .object({
    items: z.array(
      z.object({
        timestamp: z.string(),
        restSuccessCount: z.number().int(),
        rpcSuccessCount: z.number().int(),
        error4xxCount: z.number().int(),
        error5xxCount: z.number().int(),
        avgDurationMs: z.number().nullable(),
      }),
    ),
  })
  .openapi("MonitoringTimeline");

export const EndpointMetricsSchema = z
  .object({
    items: z.array(
      z.object({
        endpointId: z.string(),
        method: z.string(),
        routeTemplate: z.string().nullable(),
        requestType: z.string(),
        tag: z.string().nullable(),
        requestCount: z.number().int(),
        avgDurationMs: z.number(),
        errorRate: z.number(),
      }),
    ),
    totalCount: z.number().int(),
    facets: z.record(z.string(), FacetBuckets),
  })
  .openapi("MonitoringEndpointMetrics");

export const RequestLogSchema = z
  .object({
    id: z.string(),
    method: z.string(),
    routeTemplate: z.string().nullable(),
    endpointId: z.string(),
    requestType: z.string(),
    statusCode: z.number().int(),
    durationMs: z.number(),
    requestedAt: z.string(),
    caller: z.object({ kind: z.string().nullable(), userId: z.string().nullable(), apiKeyId: z.string().nullable() }),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
    traceId: z.string().nullable(),
    idempotencyKey: z.string().nullable(),
  })
  .openapi("MonitoringRequestLog");

export const RequestLogsSchema = z
  .object({
    items: z.array(RequestLogSchema),
    totalCount: z.number().int(),
    nextCursor: z.string().nullable(),
    facets: z.object({ method: FacetBuckets, statusClass: FacetBuckets, requestType: FacetBuckets }),
  })
  .openapi("MonitoringRequestLogs");

export const RequestLogDetailSchema = RequestLogSchema.extend({
  requestUrl: z.string(),
  requestSize: z.number().int().nullable(),
  responseSize: z.number().int().nullable(),
  failureMessage: z.string().nullable(),
  errorDetails: z.unknown().nullable(),
  requestHeaders: z.record(z.string(), z.string()),
  responseHeaders: z.record(z.string(), z.string()),
  requestBody: z.string().nullable().openapi({ description: "Redacted, cut to 4096 characters" }),
  responseBody: z
    .string()
    .nullable()
    .openapi({ description: "Redacted, cut to 4096 characters; kept for 4xx and 5xx answers only" }),
}).openapi("MonitoringRequestLogDetail");

export const TopErrorsSchema = z
  .object({
    items: z.array(
      z.object({
        endpointId: z.string(),
        method: z.string(),
        route: z.string(),
        totalCount: z.number().int(),
        errorCount: z.number().int(),
        errorRate: z.number(),
        dominantStatusCode: z.number().int(),
      }),
    ),
  })
  .openapi("MonitoringTopErrors");
