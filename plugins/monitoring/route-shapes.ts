// What every monitoring route shares: its base path, the monitoring:read guard and the JSON answer beside the shared
// error responses.
import type { z } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { errorResponses, jsonResponse } from "../../host/http/schemas.ts";

const BASE = "/api/v2/monitoring/api";

export const monitoringGet = (path: string, summary: string) => ({
  method: "get" as const,
  path: `${BASE}${path}`,
  tags: ["monitoring"],
  summary,
  middleware: [requirePermission("monitoring:read")],
});

export const ok = <T extends z.ZodType>(schema: T, summary: string) => ({
  200: jsonResponse(schema, summary),
  ...errorResponses,
});
