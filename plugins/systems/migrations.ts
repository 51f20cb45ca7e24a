// The systems plugin's own tables; each step runs once (platform.plugin_migrations). Add steps, never edit one.
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";

/** The channel a deployment's changes are told on (its id as payload), for the streams of every host process. */
export const DEPLOYMENT_CHANNEL = "organization_deployment";

export const migrations: PluginMigration[] = [
  {
    name: "0001_organization_deployments",
    async up(db: Kysely<unknown>) {
      const s = db.schema.withSchema("platform");
      await s
        .createTable("organization_deployments")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_by", "text", (c) => c.notNull().references("platform.users.id"))
        .addColumn("idempotency_key", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('running','succeeded','failed')`))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint("organization_deployments_key", ["created_by", "idempotency_key"])
        .execute();
      await s
        .createTable("organization_deployment_steps")
        .addColumn("deployment_id", "text", (c) =>
          c.notNull().references("platform.organization_deployments.id").onDelete("cascade"),
        )
        .addColumn("node_id", "text", (c) => c.notNull())
        .addColumn("parent_id", "text")
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) =>
          c.notNull().check(sql`status in ('pending','running','succeeded','failed')`),
        )
        .addColumn("detail", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("wire_error", "jsonb")
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("organization_deployment_steps_pk", ["deployment_id", "node_id"])
        .execute();
      // Every change of a deployment or one of its steps is told, whichever process wrote it.
      await sql`create function platform.notify_organization_deployment() returns trigger language plpgsql as $$
        begin
          -- Each branch is planned only when it runs: the other table's row has no such column.
          if tg_table_name = 'organization_deployments' then
            perform pg_notify(${sql.lit(DEPLOYMENT_CHANNEL)}, new.id);
          else
            perform pg_notify(${sql.lit(DEPLOYMENT_CHANNEL)}, new.deployment_id);
          end if;
          return null;
        end $$`.execute(db);
      for (const table of ["organization_deployments", "organization_deployment_steps"]) {
        await sql`create trigger ${sql.raw(`${table}_notify`)} after insert or update on ${sql.raw(`platform.${table}`)}
          for each row execute function platform.notify_organization_deployment()`.execute(db);
      }
    },
  },
];
