// The plugin's schema, in order; each step runs once (platform.plugin_migrations records it).
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_operations_audit",
    async up(db: Kysely<unknown>) {
      // Every operator call, whatever its outcome; URLs in the body with their credentials REDACTED.
      await db.schema
        .withSchema("platform")
        .createTable("operations_audit")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("api_key_id", "text")
        .addColumn("operation", "text", (c) => c.notNull())
        .addColumn("request_body", "jsonb", (c) => c.notNull())
        .addColumn("status", "integer", (c) => c.notNull())
        .addColumn("request_id", "text")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await sql`create index operations_audit_org on platform.operations_audit (organization_id, created_at)`.execute(
        db,
      );
    },
  },
];
