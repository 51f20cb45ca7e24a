// A stored request log as the routes and the stream show it: the list item, and the detail's further fields.
import { createHash } from "node:crypto";
import type { RequestLogRow } from "./tables.ts";

const UNMATCHED = "(unmatched)";
const endpointIds = new Map<string, string>();

/** A stable id of one method and route template (`ep_` and 16 hex digits), a filter value for the routes. */
export function endpointIdOf(method: string, routeTemplate: string | null): string {
  const name = `${method} ${routeTemplate ?? UNMATCHED}`;
  let id = endpointIds.get(name);
  if (!id) {
    id = `ep_${createHash("sha256").update(name).digest("hex").slice(0, 16)}`;
    if (endpointIds.size < 10_000) endpointIds.set(name, id);
  }
  return id;
}

/** The route's group in the API: the first segment after the version (`/api/v2/tokens/{x}` → `tokens`). */
export function tagOf(routeTemplate: string | null): string | null {
  const match = routeTemplate?.match(/^\/api\/(?:v\d+\/|rpc\/)?([^/{]+)/);
  return match?.[1] ?? null;
}

export type LogListRow = Pick<
  RequestLogRow,
  | "id"
  | "method"
  | "routeTemplate"
  | "endpointId"
  | "requestType"
  | "statusCode"
  | "durationMs"
  | "requestedAt"
  | "callerKind"
  | "userId"
  | "apiKeyId"
  | "ipAddress"
  | "userAgent"
  | "traceId"
  | "idempotencyKey"
>;

export const LIST_COLUMNS = [
  "id",
  "method",
  "routeTemplate",
  "endpointId",
  "requestType",
  "statusCode",
  "durationMs",
  "requestedAt",
  "callerKind",
  "userId",
  "apiKeyId",
  "ipAddress",
  "userAgent",
  "traceId",
  "idempotencyKey",
] as const satisfies readonly (keyof RequestLogRow)[];

export function toLogItem(row: LogListRow) {
  return {
    id: row.id,
    method: row.method,
    routeTemplate: row.routeTemplate,
    endpointId: row.endpointId,
    requestType: row.requestType,
    statusCode: row.statusCode,
    durationMs: Math.round(row.durationMs * 1000) / 1000,
    requestedAt: new Date(row.requestedAt).toISOString(),
    caller: { kind: row.callerKind, userId: row.userId, apiKeyId: row.apiKeyId },
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    traceId: row.traceId,
    idempotencyKey: row.idempotencyKey,
  };
}
export type LogItem = ReturnType<typeof toLogItem>;

const parse = (text: unknown) => (typeof text === "string" ? text : null);

export function toLogDetail(row: RequestLogRow) {
  return {
    ...toLogItem(row),
    requestUrl: row.requestUrl,
    requestSize: row.requestSize,
    responseSize: row.responseSize,
    failureMessage: row.failureMessage,
    errorDetails: row.errorDetails ?? null,
    requestHeaders: (row.requestHeaders ?? {}) as Record<string, string>,
    responseHeaders: (row.responseHeaders ?? {}) as Record<string, string>,
    requestBody: parse(row.requestBody),
    responseBody: parse(row.responseBody),
  };
}
