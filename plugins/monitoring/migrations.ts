// The request log's table, in order; each step runs once (platform.plugin_migrations records it).
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_request_logs",
    async up(db: Kysely<unknown>) {
      await db.schema
        .withSchema("platform")
        .createTable("monitoring_request_logs")
        .addColumn("id", "text", (c) => c.primaryKey())
        // No foreign key: unauthenticated requests have none, and a log outlives nothing it points to.
        .addColumn("organization_id", "text")
        .addColumn("caller_kind", "text")
        .addColumn("user_id", "text")
        .addColumn("api_key_id", "text")
        .addColumn("method", "text", (c) => c.notNull())
        .addColumn("route_template", "text")
        .addColumn("endpoint_id", "text", (c) => c.notNull())
        .addColumn("tag", "text")
        .addColumn("request_type", "text", (c) => c.notNull())
        .addColumn("status_code", "integer", (c) => c.notNull())
        .addColumn("duration_ms", "double precision", (c) => c.notNull())
        .addColumn("requested_at", "timestamptz", (c) => c.notNull())
        .addColumn("ip_address", "text")
        .addColumn("user_agent", "text")
        .addColumn("trace_id", "text")
        .addColumn("idempotency_key", "text")
        .addColumn("request_url", "text", (c) => c.notNull())
        .addColumn("request_size", "integer")
        .addColumn("response_size", "integer")
        .addColumn("failure_message", "text")
        .addColumn("error_details", "jsonb")
        .addColumn("request_headers", "jsonb")
        .addColumn("response_headers", "jsonb")
        .addColumn("request_body", "text")
        .addColumn("response_body", "text")
        .execute();
      // Every organisation route reads a window of one organisation, newest first (the logs' keyset order).
      await sql`create index monitoring_request_logs_org_time on platform.monitoring_request_logs
        (organization_id, requested_at desc, id desc)`.execute(db);
      await sql`create index monitoring_request_logs_org_endpoint on platform.monitoring_request_logs
        (organization_id, endpoint_id, requested_at desc)`.execute(db);
      await sql`create index monitoring_request_logs_org_errors on platform.monitoring_request_logs
        (organization_id, requested_at desc) where status_code >= 400`.execute(db);
      // Retention prunes by age across organisations.
      await sql`create index monitoring_request_logs_time on platform.monitoring_request_logs (requested_at)`.execute(
        db,
      );
    },
  },
];
