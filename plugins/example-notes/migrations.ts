// The plugin's schema, in order; each step runs once (platform.plugin_migrations records it). Add a step, never edit
// an applied one.
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_notes",
    async up(db: Kysely<unknown>) {
      const s = db.schema.withSchema("platform");
      await s
        .createTable("example_notes")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("word_count", "integer")
        .addColumn("created_by", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // One row per run of the cron entry; no unique key, so a period run twice would show.
      await s
        .createTable("example_note_digests")
        .addColumn("scheduled_at", "timestamptz", (c) => c.notNull())
        .addColumn("notes", "integer", (c) => c.notNull())
        .addColumn("pid", "integer", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
];
