// The custody plugin's own tables; each step runs once (platform.plugin_migrations). Add steps, never edit one.
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_custody_migrations",
    async up(db: Kysely<unknown>) {
      // Moves of an organisation's keys from software custody to the HSM (key-move-task.ts): one running at a time.
      await sql`create table platform.custody_migrations (
        id text primary key,
        organization_id text not null references platform.organizations(id),
        status text not null check (status in ('running', 'succeeded', 'failed')),
        step text not null,
        detail jsonb not null default '{}',
        error text,
        requested_by text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now())`.execute(db);
      await sql`create unique index custody_migrations_running on platform.custody_migrations (organization_id)
        where status = 'running'`.execute(db);
    },
  },
];
