// The plugin's schema: organisation token templates (the library templates live in code, templates.ts).
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_token_templates",
    legacyName: "0010_token_templates",
    async up(db: Kysely<unknown>) {
      await db.schema
        .withSchema("platform")
        .createTable("token_templates")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("required_features", sql`text[]`, (c) => c.notNull())
        .addColumn("allowed_features", sql`text[]`, (c) => c.notNull())
        .addColumn("defaults", "jsonb", (c) => c.notNull())
        .addColumn("compliance_template_id", "text")
        .addColumn("created_by", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .withSchema("platform")
        .createIndex("token_templates_organization")
        .on("token_templates")
        .columns(["organization_id", "name"])
        .execute();
    },
  },
];
