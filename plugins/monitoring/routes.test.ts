// Each monitoring route file mounts its documented reads behind monitoring:read; monitoringRoutes lists the seven in
// the document's order (the stream before /request-logs/{id}, which would match it).
import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { PlatformDb } from "../../host/db/database.ts";
import type { ChannelListener } from "../../host/db/notifications.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { documentRoutePermissions } from "../../host/openapi/route-permissions.ts";
import type { LogItem } from "./log-item.ts";
import { requestLogRoutes } from "./request-log-routes.ts";
import { logEvent, requestLogStreamRoute } from "./request-log-stream-route.ts";
import { requestMetricsRoutes, topErrorsRoutes } from "./request-metrics-routes.ts";

// Registration reads neither; the handlers, run by the end-to-end monitoring tests, do.
const db = {} as PlatformDb;
const stream = {} as ChannelListener;

function mounted(register: (app: App) => void) {
  const app = documentRoutePermissions(new OpenAPIHono<AppEnv>());
  register(app);
  const document = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "0" } });
  return Object.entries(document.paths ?? {}).map(([path, item]) => {
    expect(item?.get).toMatchObject({ "x-permission": "monitoring:read", tags: ["monitoring"] });
    return path.replace("/api/v2/monitoring/api", "");
  });
}

describe("monitoring routes", () => {
  it("mounts the aggregate reads", () => {
    expect(mounted((app) => requestMetricsRoutes(app, db))).toEqual([
      "/request-metrics/summary",
      "/request-metrics/timeline",
      "/endpoint-metrics",
    ]);
    expect(mounted((app) => topErrorsRoutes(app, db))).toEqual(["/request-metrics/top-errors"]);
  });

  it("mounts the request logs and their stream", () => {
    expect(mounted((app) => requestLogRoutes(app, db))).toEqual(["/request-logs", "/request-logs/{id}"]);
    expect(mounted((app) => requestLogStreamRoute(app, stream))).toEqual(["/request-logs/stream"]);
  });

  it("sends a recorded request as one `request-log` event with its id", () => {
    const item = { id: "log-1" } as LogItem;
    expect(logEvent(item)).toBe('event: request-log\nid: log-1\ndata: {"id":"log-1"}\n\n');
  });
});
