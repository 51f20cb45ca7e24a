// The request log's write path: the observer turns each finished request into its redacted row in an in-memory
// buffer; a flush (every FLUSH_ROWS rows, on the timer every second, and once more at shutdown) writes the batch with
// one INSERT, NOTIFYing each organisation's new rows in the same transaction (process-state.ts fans them out).
import { sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { storableText } from "../../host/db/storable-text.ts";
import type { Logger } from "../../host/logger.ts";
import type { PluginContext, RequestRecord } from "../../host/plugin.ts";
import { endpointIdOf, type LogItem, tagOf, toLogItem } from "./log-item.ts";
import { redactBody, redactHeaders, redactSecrets, redactUrl, redactValue } from "./redact.ts";
import { monitoringDb, type RequestLogsTable } from "./tables.ts";

export const LOG_CHANNEL = "monitoring_request_log";
/** Beyond this many unwritten records (the database away), the oldest are dropped and counted. */
const MAX_BUFFERED = 20_000;
/**
 * The table's columns and their types: the flush passes one array per column and INSERTs from their `unnest`. A
 * multi-row VALUES built a query node and a parameter per value (26 a row): at 4,000 requests a second the flush held
 * the host's event loop for about a tenth of a second every second, the requests' p99 (BENCH_ONLY=activity).
 */
const COLUMN_TYPES: Record<keyof RequestLogsTable, string> = {
  id: "text",
  organizationId: "text",
  callerKind: "text",
  userId: "text",
  apiKeyId: "text",
  method: "text",
  routeTemplate: "text",
  endpointId: "text",
  tag: "text",
  requestType: "text",
  statusCode: "integer",
  durationMs: "double precision",
  requestedAt: "timestamptz",
  ipAddress: "text",
  userAgent: "text",
  traceId: "text",
  idempotencyKey: "text",
  requestUrl: "text",
  requestSize: "integer",
  responseSize: "integer",
  failureMessage: "text",
  errorDetails: "jsonb",
  requestHeaders: "jsonb",
  responseHeaders: "jsonb",
  requestBody: "text",
  responseBody: "text",
};
const COLUMNS = Object.keys(COLUMN_TYPES) as (keyof RequestLogsTable)[];
/** camelCase, as the other queries name them: the platform database's CamelCasePlugin maps them (identifiers too). */
const COLUMN_LIST = sql.join(COLUMNS.map((column) => sql.id(column)));

/** One INSERT of every row, whatever their number: a parameter per column. */
function insertRows(rows: RequestLogsTable[]) {
  const arrays = COLUMNS.map((column) => sql`${rows.map((row) => row[column])}::${sql.raw(COLUMN_TYPES[column])}[]`);
  return sql`insert into platform.monitoring_request_logs (${COLUMN_LIST}) select * from unnest(${sql.join(arrays)})`;
}
/**
 * Buffered rows that start a flush before the timer's: a second of a busy host's requests (4,000 and more) written in
 * one go held its event loop and the database for a tenth of a second, the p99 of every request.
 */
const FLUSH_ROWS = 250;
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_NOTIFY_BYTES = 7500;

export interface Recorder {
  observe(record: RequestRecord): void;
  flush(): Promise<void>;
  /** Records dropped since start (buffer full or a failed write). */
  dropped(): number;
}

/** Free text as stored: secret-shaped values redacted, then cut. */
const cut = (text: string | null, max: number) => (text ? redactSecrets(storableText(text)).slice(0, max) : text);

function byteSize(value: unknown): number | null {
  if (value === undefined) return null;
  try {
    return Buffer.byteLength(typeof value === "string" ? value : JSON.stringify(value));
  } catch {
    return null;
  }
}

async function toRow(record: RequestRecord): Promise<RequestLogsTable> {
  const requestBody = await record.requestBody().catch(() => undefined);
  const failure = record.failure;
  // An RPC call is recorded under its path, as the caller wrote it.
  const template = cut(record.routeTemplate, 512);
  return {
    id: uuidv7({ msecs: record.requestedAt.getTime() }),
    organizationId: record.caller?.organizationId ?? null,
    callerKind: record.caller?.kind ?? null,
    userId: record.caller?.userId ?? null,
    apiKeyId: record.caller?.apiKeyId ?? null,
    method: record.method,
    routeTemplate: template,
    endpointId: endpointIdOf(record.method, template),
    tag: tagOf(template),
    requestType: record.requestType,
    statusCode: record.statusCode,
    durationMs: record.durationMs,
    requestedAt: record.requestedAt,
    ipAddress: cut(record.clientAddress, 64),
    userAgent: cut(record.userAgent, 512),
    traceId: cut(record.traceId, 128),
    idempotencyKey: cut(record.idempotencyKey, 255),
    requestUrl: redactUrl(record.url, record.routeTemplate),
    requestSize: record.requestSize ?? byteSize(requestBody),
    responseSize: record.responseSize,
    failureMessage: failure
      ? cut([failure.code, failure.message].filter(Boolean).join(": ") || `HTTP ${record.statusCode}`, 500)
      : null,
    errorDetails: failure?.details ? JSON.stringify(redactValue(failure.details)) : null,
    requestHeaders: JSON.stringify(redactHeaders(record.requestHeaders)),
    responseHeaders: JSON.stringify(redactHeaders(record.responseHeaders)),
    requestBody: redactBody(requestBody),
    // Success bodies are not kept (their size is): the detail explains failures, and the write stays small.
    responseBody: record.statusCode >= 400 ? redactBody(record.responseBody) : null,
  };
}

/** What the stream receives: the list item and, for fanning out only, its organisation. */
export type LogNotice = LogItem & { organizationId: string };

function notice(row: RequestLogsTable): string | undefined {
  if (!row.organizationId) return undefined;
  const text = JSON.stringify({ ...toLogItem(row), organizationId: row.organizationId } satisfies LogNotice);
  return Buffer.byteLength(text) <= MAX_NOTIFY_BYTES ? text : undefined;
}

export function createRecorder(ctx: PluginContext, logger: Logger): Recorder {
  const db = monitoringDb(ctx.db.platform);
  // Rows, not records: a record holds the request's context (its response, headers, body), a row a few strings; a
  // second of buffered requests no longer keeps their responses alive until the flush.
  let buffer: Promise<RequestLogsTable | null>[] = [];
  let dropped = 0;
  let flushing = false;
  const recorder: Recorder = {
    observe(record) {
      if (buffer.length >= MAX_BUFFERED) {
        buffer.shift();
        dropped += 1;
      }
      buffer.push(
        toRow(record).catch((error) => {
          dropped += 1;
          logger.warn("request log record failed", { error: String(error) });
          return null;
        }),
      );
      // A busy host writes as its rows come, a few hundred at a time, not a second's worth at once on the timer.
      if (buffer.length >= FLUSH_ROWS && !flushing) {
        flushing = true;
        void recorder.flush().finally(() => {
          flushing = false;
        });
      }
    },
    async flush() {
      if (buffer.length === 0) return;
      const batch = buffer;
      buffer = [];
      const rows = (await Promise.all(batch)).filter((row): row is RequestLogsTable => row !== null);
      if (rows.length === 0) return;
      try {
        await db.transaction().execute(async (trx) => {
          await insertRows(rows).execute(trx);
          const notices = rows.map(notice).filter((n): n is string => n !== undefined);
          // Delivered when the transaction commits, to every host process LISTENing.
          if (notices.length > 0) {
            await sql`select pg_notify(${LOG_CHANNEL}, n) from unnest(${notices}::text[]) as n`.execute(trx);
          }
        });
      } catch (error) {
        dropped += rows.length;
        logger.warn("request log flush failed", { rows: rows.length, error: String(error) });
      }
    },
    dropped: () => dropped,
  };
  return recorder;
}
