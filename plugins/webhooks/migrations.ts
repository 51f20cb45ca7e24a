// The plugin's schema, in order; each step runs once (platform.plugin_migrations records it). Add a step, never edit
// an applied one.
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";
import { FAN_OUT_TASK } from "./names.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_webhooks",
    async up(db: Kysely<unknown>) {
      const s = db.schema.withSchema("platform");
      await s
        .createTable("webhook_endpoints")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("event_types", "jsonb", (c) => c.notNull())
        .addColumn("description", "text")
        .addColumn("disabled", "boolean", (c) => c.notNull().defaultTo(false))
        .addColumn("disabled_reason", "text")
        .addColumn("secret_sealed", "text", (c) => c.notNull())
        // After a rotation the old secret signs alongside the new one until it expires.
        .addColumn("previous_secret_sealed", "text")
        .addColumn("previous_secret_expires_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createIndex("webhook_endpoints_organization")
        .on("webhook_endpoints")
        .columns(["organization_id", "created_at"])
        .execute();
      await s
        .createTable("webhook_deliveries")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("endpoint_id", "text", (c) =>
          c.notNull().references("platform.webhook_endpoints.id").onDelete("cascade"),
        )
        .addColumn("evt_id", "text", (c) => c.notNull().references("platform.webhook_outbox.id"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("lifecycle_state", "text", (c) => c.notNull())
        .addColumn("attempt", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
        .addColumn("response_status", "integer")
        .addColumn("last_error", "text")
        .addColumn("next_attempt_at", "timestamptz")
        .addColumn("delivered_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint("webhook_deliveries_endpoint_event", ["endpoint_id", "evt_id"])
        .execute();
      await s
        .createIndex("webhook_deliveries_endpoint_created")
        .on("webhook_deliveries")
        .columns(["endpoint_id", "created_at"])
        .execute();
      // Events not yet fanned out to endpoints: a row per outbox event, written by a trigger in the emitting
      // transaction, so an event is queued exactly when it commits whoever wrote it.
      await s
        .createTable("webhook_fan_out_queue")
        .addColumn("evt_id", "text", (c) => c.primaryKey().references("platform.webhook_outbox.id"))
        .execute();
      await sql`create function platform.webhook_outbox_queued() returns trigger language plpgsql as $$
        begin
          insert into platform.webhook_fan_out_queue (evt_id) values (new.id) on conflict do nothing;
          return null;
        end $$`.execute(db);
      await sql`create trigger webhook_outbox_queued after insert on platform.webhook_outbox
        for each row execute function platform.webhook_outbox_queued()`.execute(db);
      // One fan-out job per inserting statement (keyed: pending ones fold); the cron sweep catches any the job key's
      // race leaves behind (host/worker/keyed-jobs.ts). Skipped while graphile-worker's schema is not installed yet.
      await sql`create function platform.webhook_outbox_wake() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from pg_namespace where nspname = 'graphile_worker') then
            perform graphile_worker.add_job(${sql.lit(FAN_OUT_TASK)}, '{}'::json, job_key => ${sql.lit(FAN_OUT_TASK)});
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger webhook_outbox_wake after insert on platform.webhook_outbox
        for each statement execute function platform.webhook_outbox_wake()`.execute(db);
    },
  },
  {
    name: "0002_webhook_receipts",
    async up(db: Kysely<unknown>) {
      // Receipts subscribers counter-sign (receipts.ts): one per endpoint and event.
      await db.schema
        .withSchema("platform")
        .createTable("webhook_receipts")
        .addColumn("endpoint_id", "text", (c) =>
          c.notNull().references("platform.webhook_endpoints.id").onDelete("cascade"),
        )
        .addColumn("evt_id", "text", (c) => c.notNull().references("platform.webhook_outbox.id"))
        .addColumn("receipt_id", "text", (c) => c.notNull())
        .addColumn("received_at", "timestamptz", (c) => c.notNull())
        .addColumn("recorded_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("webhook_receipts_pkey", ["endpoint_id", "evt_id"])
        .execute();
      await db.schema
        .withSchema("platform")
        .createIndex("webhook_receipts_event")
        .on("webhook_receipts")
        .column("evt_id")
        .execute();
      // Deliveries by the event (receipts, and the events of one API request).
      await db.schema
        .withSchema("platform")
        .createIndex("webhook_deliveries_event")
        .on("webhook_deliveries")
        .column("evt_id")
        .execute();
    },
  },
  {
    name: "0003_endpoint_filters_and_receipts",
    async up(db: Kysely<unknown>) {
      // Resource filters (filters.ts) and whether the endpoint counter-signs receipts of final events: a 2xx is a
      // delivery unless it asks for them (endpoints made before asked for none either way: the type decided).
      await sql`alter table platform.webhook_endpoints
        add column filters jsonb not null default '{}'::jsonb,
        add column receipt_required boolean not null default false`.execute(db);
    },
  },
];
