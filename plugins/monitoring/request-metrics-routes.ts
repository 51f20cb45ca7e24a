// The aggregate reads over an organisation's recorded requests: totals, the timeline, per endpoint, top errors.
import { createRoute } from "@hono/zod-openapi";
import type { PlatformDb } from "../../host/db/database.ts";
import type { App } from "../../host/http/env.ts";
import { endpointMetrics, equals, scope, summary, timeline, topErrors } from "./queries.ts";
import { monitoringGet, ok } from "./route-shapes.ts";
import {
  EndpointMetricsQuery,
  EndpointMetricsSchema,
  MAX_DAYS,
  SummaryQuery,
  SummarySchema,
  TimelineQuery,
  TimelineSchema,
  TopErrorsQuery,
  TopErrorsSchema,
} from "./schemas.ts";
import { windowOf } from "./window.ts";

const summaryRoute = createRoute({
  ...monitoringGet("/request-metrics/summary", "Request totals, error rates and durations"),
  request: { query: SummaryQuery },
  responses: ok(SummarySchema, "The summary"),
});
const timelineRoute = createRoute({
  ...monitoringGet("/request-metrics/timeline", "Requests per hour or day"),
  request: { query: TimelineQuery },
  responses: ok(TimelineSchema, "The buckets, oldest first"),
});
const endpointsRoute = createRoute({
  ...monitoringGet("/endpoint-metrics", "Requests per endpoint"),
  request: { query: EndpointMetricsQuery },
  responses: ok(EndpointMetricsSchema, "The endpoints"),
});
const topErrorsRoute = createRoute({
  ...monitoringGet("/request-metrics/top-errors", "Routes with the most errors"),
  request: { query: TopErrorsQuery },
  responses: ok(TopErrorsSchema, "The routes, most errors first"),
});

/** Totals, the timeline and the per-endpoint figures. */
export function requestMetricsRoutes(app: App, db: PlatformDb) {
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
}

/** The routes with the most errors (listed last in the document). */
export function topErrorsRoutes(app: App, db: PlatformDb) {
  app.openapi(topErrorsRoute, async (c) => {
    const q = c.req.valid("query");
    const where = scope(c.get("principal").organizationId, windowOf(q, MAX_DAYS.topErrors), [
      equals("request_type", q.requestType),
    ]);
    return c.json({ items: await topErrors(db, where, q.limit) }, 200);
  });
}
