// The plugin's schema, in order; each step runs once (platform.plugin_migrations records it).
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_exchange_rate_overrides",
    async up(db: Kysely<unknown>) {
      // Every override ever set: the live one has no removed_at (at most one per organisation, chain and pair);
      // removed ones stay for the history.
      await db.schema
        .withSchema("platform")
        .createTable("exchange_rate_overrides")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("base_currency", "text", (c) => c.notNull())
        .addColumn("quote_currency", "text", (c) => c.notNull())
        .addColumn("rate", "text", (c) => c.notNull())
        .addColumn("effective_at", "timestamptz", (c) => c.notNull())
        .addColumn("created_by", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("removed_at", "timestamptz")
        .execute();
      await sql`create unique index exchange_rate_overrides_live on platform.exchange_rate_overrides
        (organization_id, chain_id, base_currency, quote_currency) where removed_at is null`.execute(db);
    },
  },
];
