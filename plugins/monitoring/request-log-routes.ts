// The recorded requests themselves: a page of them (keyset cursor, with facets) and one with its redacted headers
// and bodies.
import { createRoute, type z } from "@hono/zod-openapi";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { toLogDetail, toLogItem } from "./log-item.ts";
import { equals, requestLogs, scope, statusClassIs } from "./queries.ts";
import { monitoringGet, ok } from "./route-shapes.ts";
import { LogIdParams, MAX_DAYS, RequestLogDetailSchema, RequestLogsQuery, RequestLogsSchema } from "./schemas.ts";
import { monitoringDb } from "./tables.ts";
import { windowOf } from "./window.ts";

const logsRoute = createRoute({
  ...monitoringGet("/request-logs", "Recorded requests, newest first (keyset cursor)"),
  request: { query: RequestLogsQuery },
  responses: ok(RequestLogsSchema, "A page of request logs"),
});
const logRoute = createRoute({
  ...monitoringGet("/request-logs/{id}", "One recorded request with its redacted headers and bodies"),
  request: { params: LogIdParams },
  responses: ok(RequestLogDetailSchema, "The request log"),
});

export function requestLogRoutes(app: App, db: PlatformDb) {
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
}
