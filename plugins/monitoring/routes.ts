// The seven monitoring routes (spec: Endpoints → Monitoring), for the organisation's administrators and owners; every
// read is one organisation's recorded requests in a window of at most the route's range.
import { createRoute, type z } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { errorResponses, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { type LogItem, toLogDetail, toLogItem } from "./log-item.ts";
import { monitoringProcess } from "./process-state.ts";
import { endpointMetrics, equals, requestLogs, scope, statusClassIs, summary, timeline, topErrors } from "./queries.ts";
import type { LogNotice } from "./recorder.ts";
import {
  EndpointMetricsQuery,
  EndpointMetricsSchema,
  LogIdParams,
  MAX_DAYS,
  RequestLogDetailSchema,
  RequestLogsQuery,
  RequestLogsSchema,
  SummaryQuery,
  SummarySchema,
  TimelineQuery,
  TimelineSchema,
  TopErrorsQuery,
  TopErrorsSchema,
} from "./schemas.ts";
import { monitoringDb } from "./tables.ts";
import { windowOf } from "./window.ts";

const BASE = "/api/v2/monitoring/api";
/** A comment line now and then keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

const common = (path: string, summary: string) => ({
  method: "get" as const,
  path: `${BASE}${path}`,
  tags: ["monitoring"],
  summary,
  middleware: [requirePermission("monitoring:read")],
});
const ok = <T extends z.ZodType>(schema: T, summary: string) => ({
  200: jsonResponse(schema, summary),
  ...errorResponses,
});

const summaryRoute = createRoute({
  ...common("/request-metrics/summary", "Request totals, error rates and durations"),
  request: { query: SummaryQuery },
  responses: ok(SummarySchema, "The summary"),
});
const timelineRoute = createRoute({
  ...common("/request-metrics/timeline", "Requests per hour or day"),
  request: { query: TimelineQuery },
  responses: ok(TimelineSchema, "The buckets, oldest first"),
});
const endpointsRoute = createRoute({
  ...common("/endpoint-metrics", "Requests per endpoint"),
  request: { query: EndpointMetricsQuery },
  responses: ok(EndpointMetricsSchema, "The endpoints"),
});
const logsRoute = createRoute({
  ...common("/request-logs", "Recorded requests, newest first (keyset cursor)"),
  request: { query: RequestLogsQuery },
  responses: ok(RequestLogsSchema, "A page of request logs"),
});
const topErrorsRoute = createRoute({
  ...common("/request-metrics/top-errors", "Routes with the most errors"),
  request: { query: TopErrorsQuery },
  responses: ok(TopErrorsSchema, "The routes, most errors first"),
});

const logRoute = createRoute({
  ...common("/request-logs/{id}", "One recorded request with its redacted headers and bodies"),
  request: { params: LogIdParams },
  responses: ok(RequestLogDetailSchema, "The request log"),
});

const streamRoute = createRoute({
  ...common(
    "/request-logs/stream",
    "Server-sent events: one `request-log` event per new request of the organisation (no replay)",
  ),
  responses: {
    200: { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
    ...errorResponses,
  },
});

export function monitoringRoutes(app: App, ctx: PluginContext<"webhookDeliveryStats">) {
  const db = ctx.db.platform;
  const state = monitoringProcess(ctx);

  app.openapi(summaryRoute, async (c) => {
    const query = c.req.valid("query");
    const where = scope(c.get("principal").organizationId, windowOf(query, MAX_DAYS.summary), [
      equals("request_type", query.requestType),
    ]);
    return c.json(await summary(db, where), 200);
  });

  app.openapi(timelineRoute, async (c) => {
    const query = c.req.valid("query");
    const hours = query.granularity === "day" ? 24 : 1;
    const items = await timeline(
      db,
      c.get("principal").organizationId,
      windowOf(query, MAX_DAYS.timeline),
      hours,
      equals("l.endpoint_id", query.endpointId),
    );
    return c.json({ items }, 200);
  });

  app.openapi(endpointsRoute, async (c) => {
    const q = c.req.valid("query");
    const where = scope(c.get("principal").organizationId, windowOf(q, MAX_DAYS.endpointMetrics), [
      equals("method", q.method),
      equals("route_template", q.endpoint),
      equals("tag", q.tag),
      equals("request_type", q.requestType),
    ]);
    return c.json(await endpointMetrics(db, where, q.orderBy, { limit: q.limit, offset: q.offset }), 200);
  });

  // Before /request-logs/{id}: the first registered of two matching routes answers.
  app.openapi(streamRoute, async (c) => {
    const { organizationId } = c.get("principal");
    const pending: LogItem[] = [];
    let deliver: ((item: LogItem) => void) | undefined;
    const unsubscribe = await state.stream.subscribe(organizationId, (payload) => {
      if (payload === null) return; // no replay: a reconnection brings nothing back
      const { organizationId: _, ...item } = JSON.parse(payload) as LogNotice;
      if (deliver) deliver(item);
      else pending.push(item);
    });
    return streamSSE(c, async (stream) => {
      let writing = Promise.resolve();
      const write = (text: string) => {
        writing = writing
          .then(() => stream.write(text))
          .then(
            () => {},
            () => {},
          );
      };
      deliver = (item) => write(`event: request-log\nid: ${item.id}\ndata: ${JSON.stringify(item)}\n\n`);
      write(": listening\n\n");
      for (const item of pending.splice(0)) deliver(item);
      const keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(keepalive);
      unsubscribe();
    }) as never;
  });

  app.openapi(logsRoute, async (c) => {
    const q = c.req.valid("query");
    const where = scope(c.get("principal").organizationId, windowOf(q, MAX_DAYS.requestLogs), [
      equals("endpoint_id", q.endpointId),
      equals("status_code", q.statusCode),
      q.statusClass ? statusClassIs(q.statusClass) : undefined,
      equals("route_template", q.endpoint),
      equals("method", q.method),
      equals("request_type", q.requestType),
    ]);
    const page = await requestLogs(db, where, q.cursor ? decodeCursor(q.cursor) : undefined, q.limit);
    return c.json(
      {
        items: page.items.map(toLogItem),
        totalCount: page.totalCount,
        nextCursor: page.next ? encodeCursor(page.next) : null,
        facets: page.facets as z.infer<typeof RequestLogsSchema>["facets"],
      },
      200,
    );
  });

  app.openapi(logRoute, async (c) => {
    const { id } = c.req.valid("param");
    const row = await monitoringDb(db)
      .selectFrom("monitoringRequestLogs")
      .selectAll()
      .where("id", "=", id)
      .where("organizationId", "=", c.get("principal").organizationId)
      .executeTakeFirst();
    if (!row) {
      throw new ApiError("MONITORING_REQUEST_LOG_NOT_FOUND", { message: `No request log ${id}`, details: { id } });
    }
    return c.json(toLogDetail(row), 200);
  });

  app.openapi(topErrorsRoute, async (c) => {
    const q = c.req.valid("query");
    const where = scope(c.get("principal").organizationId, windowOf(q, MAX_DAYS.topErrors), [
      equals("request_type", q.requestType),
    ]);
    return c.json({ items: await topErrors(db, where, q.limit) }, 200);
  });
}
