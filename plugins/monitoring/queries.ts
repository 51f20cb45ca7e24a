// The monitoring routes' reads over platform.monitoring_request_logs, always one organisation's rows in a window.
import { type RawBuilder, sql } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";
import { LIST_COLUMNS, type LogListRow } from "./log-item.ts";
import type { Window } from "./window.ts";

const LOGS = sql.raw("platform.monitoring_request_logs");

export type Condition = RawBuilder<unknown>;

export function scope(organizationId: string, window: Window, extra: (Condition | undefined)[] = []): Condition {
  const all = [
    sql`organization_id = ${organizationId}`,
    sql`requested_at >= ${window.from}`,
    sql`requested_at < ${window.to}`,
    ...extra.filter((c): c is Condition => c !== undefined),
  ];
  return sql.join(all, sql` and `);
}

/** `column = value` when the value is given. */
export const equals = (column: string, value: unknown): Condition | undefined =>
  value === undefined ? undefined : sql`${sql.ref(column)} = ${value}`;

/** `2xx`: 200 to 299, and so on. */
export const statusClassIs = (statusClass: string): Condition => {
  const low = Number(statusClass[0]) * 100;
  return sql`status_code between ${low} and ${low + 99}`;
};

const rows = async <T>(db: PlatformDb, query: RawBuilder<T>) => (await query.execute(db)).rows;

export async function summary(db: PlatformDb, where: Condition) {
  const [row] = await rows(
    db,
    sql<{ total: number; e4: number; e5: number; avg: number | null; p95: number | null }>`
      select count(*)::int as total,
             count(*) filter (where status_code between 400 and 499)::int as e4,
             count(*) filter (where status_code >= 500)::int as e5,
             avg(duration_ms)::float8 as avg,
             percentile_cont(0.95) within group (order by duration_ms)::float8 as p95
        from ${LOGS} where ${where}`,
  );
  const { total, e4, e5, avg, p95 } = row!;
  const rate = (n: number) => (total === 0 ? 0 : n / total);
  return {
    totalRequests: total,
    errorRate: rate(e4 + e5),
    serverErrorRate: rate(e5),
    clientErrorRate: rate(e4),
    avgDurationMs: round(avg ?? 0),
    p95DurationMs: p95 === null ? null : round(p95),
    error4xxCount: e4,
    error5xxCount: e5,
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export async function timeline(
  db: PlatformDb,
  organizationId: string,
  window: Window,
  hours: number,
  extra?: Condition,
) {
  const step = sql`make_interval(hours => ${hours})`;
  const buckets = await rows(
    db,
    sql<{ ts: Date; rest: number; rpc: number; e4: number; e5: number; avg: number | null }>`
      select b.ts,
             count(l.id) filter (where l.request_type = 'rest' and l.status_code < 400)::int as rest,
             count(l.id) filter (where l.request_type = 'rpc' and l.status_code < 400)::int as rpc,
             count(l.id) filter (where l.status_code between 400 and 499)::int as e4,
             count(l.id) filter (where l.status_code >= 500)::int as e5,
             avg(l.duration_ms)::float8 as avg
        from generate_series(date_bin(${step}, ${window.from}::timestamptz, timestamptz 'epoch'),
                             ${window.to}::timestamptz - interval '1 millisecond', ${step}) as b(ts)
        left join ${LOGS} l
          on l.organization_id = ${organizationId}
         and l.requested_at >= greatest(b.ts, ${window.from}::timestamptz)
         and l.requested_at < least(b.ts + ${step}, ${window.to}::timestamptz)
         ${extra ? sql`and ${extra}` : sql``}
       group by b.ts order by b.ts`,
  );
  return buckets.map((b) => ({
    timestamp: new Date(b.ts).toISOString(),
    restSuccessCount: b.rest,
    rpcSuccessCount: b.rpc,
    error4xxCount: b.e4,
    error5xxCount: b.e5,
    avgDurationMs: b.avg === null ? null : round(b.avg),
  }));
}

export type EndpointOrder = "requestCount" | "avgDurationMs" | "errorRate";

export async function endpointMetrics(
  db: PlatformDb,
  where: Condition,
  order: EndpointOrder,
  page: { limit: number; offset: number },
) {
  const grouped = sql`
    select endpoint_id, method, route_template, request_type, tag,
           count(*)::int as request_count,
           avg(duration_ms)::float8 as avg_duration_ms,
           (count(*) filter (where status_code >= 400))::float8 / count(*) as error_rate
      from ${LOGS} where ${where}
     group by endpoint_id, method, route_template, request_type, tag`;
  const orderBy = sql.raw(
    { requestCount: "request_count", avgDurationMs: "avg_duration_ms", errorRate: "error_rate" }[order],
  );
  const [items, [counted], facets] = await Promise.all([
    rows(
      db,
      sql<{
        endpointId: string;
        method: string;
        routeTemplate: string | null;
        requestType: string;
        tag: string | null;
        requestCount: number;
        avgDurationMs: number;
        errorRate: number;
      }>`select * from (${grouped}) g order by ${orderBy} desc, endpoint_id limit ${page.limit} offset ${page.offset}`,
    ),
    rows(db, sql<{ total: number }>`select count(*)::int as total from (${grouped}) g`),
    rows(
      db,
      sql<{ field: string; value: string | null; count: number }>`
        select 'method' as field, method as value, count(*)::int as count from (${grouped}) g group by method
        union all select 'requestType', request_type, count(*)::int from (${grouped}) g group by request_type
        union all select 'tag', tag, count(*)::int from (${grouped}) g group by tag`,
    ),
  ]);
  return {
    items: items.map((i) => ({ ...i, avgDurationMs: round(i.avgDurationMs) })),
    totalCount: counted!.total,
    facets: facetsOf(facets, ["method", "requestType", "tag"]),
  };
}

export type Facets = Record<string, { value: string | null; count: number }[]>;

function facetsOf(list: { field: string; value: string | null; count: number }[], fields: string[]): Facets {
  const out: Facets = Object.fromEntries(fields.map((f) => [f, []]));
  for (const { field, value, count } of list) out[field]?.push({ value, count });
  for (const buckets of Object.values(out))
    buckets.sort((a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value)));
  return out;
}

export interface Cursor {
  requestedAt: Date;
  id: string;
}

/** A page of logs newest first, keyset (requestedAt desc, id desc) after `cursor`; totals and facets ignore it. */
export async function requestLogs(db: PlatformDb, where: Condition, cursor: Cursor | undefined, limit: number) {
  const after = cursor ? sql` and (requested_at, id) < (${cursor.requestedAt}::timestamptz, ${cursor.id})` : sql``;
  const columns = sql.join(LIST_COLUMNS.map((c) => sql.ref(c.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`))));
  const [page, [counted], facets] = await Promise.all([
    rows(
      db,
      sql<LogListRow>`select ${columns} from ${LOGS} where ${where}${after}
        order by requested_at desc, id desc limit ${limit + 1}`,
    ),
    rows(db, sql<{ total: number }>`select count(*)::int as total from ${LOGS} where ${where}`),
    rows(
      db,
      sql<{ field: string; value: string; count: number }>`
        select 'method' as field, method as value, count(*)::int as count from ${LOGS} where ${where} group by method
        union all select 'statusClass', (status_code / 100)::text || 'xx', count(*)::int from ${LOGS} where ${where}
          group by status_code / 100
        union all select 'requestType', request_type, count(*)::int from ${LOGS} where ${where} group by request_type`,
    ),
  ]);
  const more = page.length > limit;
  const items = more ? page.slice(0, limit) : page;
  const last = items.at(-1);
  return {
    items,
    totalCount: counted!.total,
    next: more && last ? { requestedAt: new Date(last.requestedAt), id: last.id } : undefined,
    facets: facetsOf(facets, ["method", "statusClass", "requestType"]),
  };
}

export async function topErrors(db: PlatformDb, where: Condition, limit: number) {
  const list = await rows(
    db,
    sql<{
      endpointId: string;
      method: string;
      route: string | null;
      total: number;
      errors: number;
      dominant: number;
    }>`select endpoint_id, method, route_template as route, count(*)::int as total,
              count(*) filter (where status_code >= 400)::int as errors,
              mode() within group (order by status_code) filter (where status_code >= 400) as dominant
         from ${LOGS} where ${where}
        group by endpoint_id, method, route_template
       having count(*) filter (where status_code >= 400) > 0
        order by errors desc, total desc, endpoint_id limit ${limit}`,
  );
  return list.map((r) => ({
    endpointId: r.endpointId,
    method: r.method,
    route: r.route ?? "(unmatched)",
    totalCount: r.total,
    errorCount: r.errors,
    errorRate: r.errors / r.total,
    dominantStatusCode: r.dominant,
  }));
}
