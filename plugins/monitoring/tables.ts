// The request log's table (migrations.ts) as a Kysely type, and the platform db widened with it.
import type { Selectable } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

export interface RequestLogsTable {
  id: string;
  organizationId: string | null;
  callerKind: string | null;
  userId: string | null;
  apiKeyId: string | null;
  method: string;
  routeTemplate: string | null;
  endpointId: string;
  tag: string | null;
  requestType: "rest" | "rpc";
  statusCode: number;
  durationMs: number;
  requestedAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  traceId: string | null;
  idempotencyKey: string | null;
  requestUrl: string;
  requestSize: number | null;
  responseSize: number | null;
  failureMessage: string | null;
  errorDetails: unknown;
  requestHeaders: unknown;
  responseHeaders: unknown;
  requestBody: string | null;
  responseBody: string | null;
}

// A type alias, not an interface: withTables wants an index signature.
export type MonitoringTables = { monitoringRequestLogs: RequestLogsTable };
export type RequestLogRow = Selectable<RequestLogsTable>;

export const monitoringDb = (db: PlatformDb) => db.withTables<MonitoringTables>();
