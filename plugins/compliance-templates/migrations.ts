// The plugin's schema: compliance templates, the library (organization_id null, is_system, published) and each
// organisation's own. Columns: modules jsonb is [{typeId, params?}] (params as the control catalogue validates them,
// absent when the token supplies them); jurisdictions text[] (uppercase codes, empty = global); required_controls
// text[] (type ids among the modules); module_set_version 1 (legacy) or 2, fixed at creation; version counts
// accepted changes.
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";
import { upsertLibraryTemplates } from "./library-templates.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_compliance_templates",
    legacyName: "0008_compliance_templates",
    async up(db: Kysely<unknown>) {
      await db.schema
        .withSchema("platform")
        .createTable("compliance_templates")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.references("platform.organizations.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("jurisdictions", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("is_system", "boolean", (c) => c.notNull().defaultTo(false))
        .addColumn("is_draft", "boolean", (c) => c.notNull().defaultTo(true))
        .addColumn("module_set_version", "integer", (c) => c.notNull().check(sql`module_set_version in (1, 2)`))
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("modules", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn("required_controls", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("created_by", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addCheckConstraint(
          "compliance_templates_owner",
          sql`(is_system and organization_id is null and not is_draft) or (not is_system and organization_id is not null)`,
        )
        .execute();
      await db.schema
        .withSchema("platform")
        .createIndex("compliance_templates_organization")
        .on("compliance_templates")
        .columns(["organization_id", "name"])
        .execute();
      await upsertLibraryTemplates(db);
    },
  },
];
