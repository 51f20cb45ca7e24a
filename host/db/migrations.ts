// The platform's core schema (the tables the host's own mechanics use), as ordered kysely migrations kept in code;
// then each plugin's own list (host/db/plugin-migrations.ts). Numbers missing here (0008, 0010) were tables that
// plugins now own: their migrations adopt those steps on databases that ran them.
import { type Kysely, type Migration, Migrator, type RawBuilder, sql } from "kysely";
import { TRANSACTION_REQUEST_CHANNEL } from "../mutations/wait-for-terminal.ts";
import type { PluginMigrations } from "../plugin-host.ts";
import { createNotifyTrigger } from "./notify-trigger.ts";
import { adoptLegacySteps, migratePlugins } from "./plugin-migrations.ts";
import { createTableVersions, versionTable } from "./table-versions.ts";

/** The core list, in order (exported for the upgrade test). */
export const coreMigrations: Record<string, Migration> = {
  "0001_platform": {
    async up(db: Kysely<unknown>) {
      await sql`create schema if not exists platform`.execute(db);
      const s = db.schema.withSchema("platform");
      await s
        .createTable("organizations")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("default_chain_id", "integer", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createTable("users")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("display_name", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createTable("memberships")
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("user_id", "text", (c) => c.notNull().references("platform.users.id"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("memberships_pk", ["organization_id", "user_id", "role"])
        .execute();
      await s
        .createTable("api_keys")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("user_id", "text", (c) => c.notNull().references("platform.users.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("key_hash", "text", (c) => c.notNull().unique())
        .addColumn("key_prefix", "text", (c) => c.notNull())
        .addColumn("scope", "text", (c) => c.notNull().check(sql`scope in ('read', 'read-write')`))
        .addColumn("expires_at", "timestamptz")
        .addColumn("revoked_at", "timestamptz")
        .addColumn("last_used_at", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createTable("custody_seeds")
        .addColumn("organization_id", "text", (c) => c.primaryKey().references("platform.organizations.id"))
        .addColumn("encrypted_seed", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createTable("wallets")
        .addColumn("address", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("user_id", "text", (c) => c.references("platform.users.id"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("derivation_path", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createTable("organization_chains")
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("system_address", "text")
        .addColumn("token_factory_address", "text")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("organization_chains_pk", ["organization_id", "chain_id"])
        .execute();
      await s
        .createTable("transaction_requests")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("sub_status", "text")
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("from_address", "text", (c) => c.notNull())
        .addColumn("to_address", "text", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("value", "numeric(78, 0)", (c) => c.notNull().defaultTo(0))
        .addColumn("nonce", "integer")
        .addColumn("raw_transaction", "text")
        .addColumn("transaction_hash", "text")
        .addColumn("block_number", "numeric(78, 0)")
        .addColumn("result", "jsonb")
        .addColumn("error_message", "text")
        .addColumn("contract_error", "jsonb")
        .addColumn("created_by", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s
        .createIndex("transaction_requests_org_created")
        .on("transaction_requests")
        .columns(["organization_id", "created_at"])
        .execute();
    },
  },
  "0002_people_and_sessions": {
    async up(db: Kysely<unknown>) {
      const s = db.schema.withSchema("platform");
      await s
        .alterTable("users")
        .addColumn("password_hash", "text")
        .addColumn("totp_secret", "text") // sealed with the master key
        .addColumn("pincode_hash", "text")
        .execute();
      await s
        .alterTable("organizations")
        .addColumn("account_abstraction_enabled", "boolean", (c) => c.notNull().defaultTo(false))
        .execute();
      await s
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull().references("platform.users.id"))
        .addColumn("organization_id", "text", (c) => c.references("platform.organizations.id"))
        .addColumn("stage", "text", (c) => c.notNull().check(sql`stage in ('pending-2fa', 'active')`))
        .addColumn("ip_address", "text")
        .addColumn("user_agent", "text")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("last_seen_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("expires_at", "timestamptz", (c) => c.notNull())
        .addColumn("revoked_at", "timestamptz")
        .execute();
      await s.createIndex("sessions_user").on("sessions").column("user_id").execute();
    },
  },
  "0003_idempotency": {
    async up(db: Kysely<unknown>) {
      const s = db.schema.withSchema("platform");
      await s
        .alterTable("transaction_requests")
        .addColumn("idempotency_key", "text")
        .addColumn("executor", "text", (c) => c.notNull().defaultTo("eoa"))
        .addColumn("wallet_selection", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .execute();
      // One operation per sender, chain and key (the spec's deduplication boundary).
      await sql`create unique index transaction_requests_idempotency on platform.transaction_requests
        (from_address, chain_id, idempotency_key) where idempotency_key is not null`.execute(db);
    },
  },
  "0004_request_description": {
    async up(db: Kysely<unknown>) {
      // Decoded once when a request is queued, not on every read of a list.
      await db.schema
        .withSchema("platform")
        .alterTable("transaction_requests")
        .addColumn("description", "text")
        .execute();
      const { describeCall } = await import("../mutations/describe.ts");
      await describeRequests(db, describeCall, sql`true`);
    },
  },
  "0005_pipeline": {
    async up(db: Kysely<unknown>) {
      const s = db.schema.withSchema("platform");
      await s
        .alterTable("transaction_requests")
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      // The next nonce of each signer on each chain, advanced in the transaction that stores a signed write.
      await s
        .createTable("signer_nonces")
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("next_nonce", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("signer_nonces_pk", ["chain_id", "address"])
        .execute();
      await sql`create index transaction_requests_confirming on platform.transaction_requests (updated_at)
        where status = 'CONFIRMING'`.execute(db);
    },
  },
  "0006_worker_heartbeats": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .withSchema("platform")
        .createTable("worker_heartbeats")
        .addColumn("pool_id", "text", (c) => c.primaryKey())
        .addColumn("beat_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  // Hashes a fee bump replaced (same nonce): any of them may still be the one mined.
  "0007_replaced_hashes": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .withSchema("platform")
        .alterTable("transaction_requests")
        .addColumn("replaced_hashes", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("fee_bumps", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  "0009_system_contracts": {
    async up(db: Kysely<unknown>) {
      // Every contract of the organisation's system (ISystemFactory.SystemContracts), lower-case addresses.
      await db.schema
        .withSchema("platform")
        .alterTable("organization_chains")
        .addColumn("contracts", "jsonb")
        .execute();
    },
  },
  "0011_platform_changes": {
    async up(db: Kysely<unknown>) {
      // Hosts cache API keys with their roles and the organisations' chains for a few seconds; any change to those
      // rows, by any process, tells them to drop what they hold (host/db/platform-changes.ts).
      await sql`
        create function platform.notify_platform_changed() returns trigger language plpgsql as $$
        begin
          perform pg_notify('platform_changed', tg_table_name);
          return null;
        end $$`.execute(db);
      for (const table of ["api_keys", "memberships", "organizations", "organization_chains"]) {
        await sql`
          create trigger ${sql.raw(`${table}_changed`)}
          after insert or update or delete or truncate on ${sql.table(`platform.${table}`)}
          for each statement execute function platform.notify_platform_changed()`.execute(db);
      }
    },
  },
  "0012_participant_changes": {
    async up(db: Kysely<unknown>) {
      // Hosts also cache participants (host/http/find-participant.ts): people's names and everyone's wallets.
      for (const table of ["users", "wallets"]) {
        await sql`
          create trigger ${sql.raw(`${table}_changed`)}
          after insert or update or delete or truncate on ${sql.table(`platform.${table}`)}
          for each statement execute function platform.notify_platform_changed()`.execute(db);
      }
    },
  },
  "0013_api_key_last_used": {
    async up(db: Kysely<unknown>) {
      // A key's last use is written at most once a minute per key; it must not drop every host's caches each time.
      await sql`drop trigger api_keys_changed on platform.api_keys`.execute(db);
      await sql`
        create trigger api_keys_changed
        after insert or delete or truncate
          or update of id, organization_id, user_id, name, key_hash, key_prefix, scope, expires_at, revoked_at, created_at
        on platform.api_keys
        for each statement execute function platform.notify_platform_changed()`.execute(db);
    },
  },
  "0014_auth_failures": {
    async up(db: Kysely<unknown>) {
      // Failed authentication attempts per subject (host/auth/failure-counters.ts), shared by every host process:
      // scope is what is counted (sign-in:account, two-factor:account, sign-in:address, credential:address).
      await db.schema
        .withSchema("platform")
        .createTable("auth_failures")
        .addColumn("scope", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("failures", "integer", (c) => c.notNull())
        .addColumn("last_failure_at", "timestamptz", (c) => c.notNull())
        .addColumn("locked_until", "timestamptz", (c) => c.notNull())
        .addPrimaryKeyConstraint("auth_failures_pk", ["scope", "subject"])
        .execute();
      await db.schema
        .withSchema("platform")
        .createIndex("auth_failures_last_failure")
        .on("auth_failures")
        .column("last_failure_at")
        .execute();
    },
  },
  "0015_webhook_outbox": {
    async up(db: Kysely<unknown>) {
      // Events recorded by ctx.emit (host/events/outbox.ts), in the transaction of the write they tell of.
      await db.schema
        .withSchema("platform")
        .createTable("webhook_outbox")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("payload", "jsonb", (c) => c.notNull())
        .addColumn("related", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("idempotency_key", "text")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        // Nulls are distinct: only events with a key are folded.
        .addUniqueConstraint("webhook_outbox_idempotency", ["organization_id", "idempotency_key"])
        .execute();
      await db.schema
        .withSchema("platform")
        .createIndex("webhook_outbox_created")
        .on("webhook_outbox")
        .columns(["created_at", "id"])
        .execute();
    },
  },
  "0016_indexed_events": {
    async up(db: Kysely<unknown>) {
      // Events read from the index (host/events/index-lifecycle.ts) share a request's idempotency key with other
      // events of that request: repeats are folded by a key of their own, not by the request's.
      await sql`alter table platform.webhook_outbox
        drop constraint webhook_outbox_idempotency,
        add column dedupe_key text,
        add column lifecycle_state text not null default 'final',
        add column retracted_evt_id text references platform.webhook_outbox (id),
        add column chain_id integer,
        add column transaction_hash text,
        add column request_id text`.execute(db);
      await sql`update platform.webhook_outbox set dedupe_key = type || ':' || idempotency_key,
        lifecycle_state = case when type like '%.provisional' then 'provisional' else 'final' end
        where idempotency_key is not null or type like '%.provisional'`.execute(db);
      await sql`alter table platform.webhook_outbox
        add constraint webhook_outbox_dedupe unique (organization_id, dedupe_key)`.execute(db);
      await sql`create index webhook_outbox_request on platform.webhook_outbox (organization_id, request_id)
        where request_id is not null`.execute(db);
      // An indexed event finds the API request that caused it by its transaction hash.
      await sql`create index transaction_requests_hash on platform.transaction_requests (chain_id, transaction_hash)
        where transaction_hash is not null`.execute(db);
      // How far the lifecycle has read the index of each chain: blocks up to finalized_through are past the reorg
      // depth (their final events are out).
      await db.schema
        .withSchema("platform")
        .createTable("index_lifecycle_cursors")
        .addColumn("chain_id", "integer", (c) => c.primaryKey())
        .addColumn("finalized_through", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // Provisional events told and not yet settled: a reorg that removes the observation retracts its event.
      await db.schema
        .withSchema("platform")
        .createTable("index_observations")
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("organization_id", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("payload", "jsonb", (c) => c.notNull())
        .addColumn("evt_id", "text", (c) => c.notNull().references("platform.webhook_outbox.id"))
        .addPrimaryKeyConstraint("index_observations_pkey", ["chain_id", "type", "key"])
        .execute();
    },
  },
  "0017_request_gas_limit": {
    async up(db: Kysely<unknown>) {
      // A write whose sender knows its gas (a bundle: the sum of its operations' limits) is not estimated.
      await sql`alter table platform.transaction_requests add column gas_limit numeric(78, 0)`.execute(db);
    },
  },
  "0018_default_executor": {
    async up(db: Kysely<unknown>) {
      // The executor of the organisation's writes that name none (X-Executor absent): its executor policy.
      await sql`alter table platform.organizations add column default_executor text not null default 'eoa'`.execute(db);
    },
  },
  "0019_worker_deployments": {
    async up(db: Kysely<unknown>) {
      // Each registration of a worker process (its graphile-worker pool) under its service URL: the operator
      // routes' "deployments" (plugins/workflow-engine). A process registers at start; rows outlive it until cleaned.
      await db.schema
        .withSchema("platform")
        .createTable("worker_deployments")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("pool_id", "text", (c) => c.notNull())
        .addColumn("service_url", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  "0020_api_key_request_windows": {
    async up(db: Kysely<unknown>) {
      // Each API key's requests per second of the database's clock, shared by every host: the sliding window behind
      // auth.apikey.THROTTLED (host/auth/rate-limit.ts). Rows older than the window are deleted as leases are taken.
      await db.schema
        .withSchema("platform")
        .createTable("api_key_request_buckets")
        .addColumn("key_id", "text", (c) => c.notNull())
        .addColumn("bucket", "bigint", (c) => c.notNull())
        .addColumn("count", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("api_key_request_buckets_pkey", ["key_id", "bucket"])
        .execute();
      // A host's lease of requests for a key: the unused part of its previous lease handed back, the key's requests
      // of the last p_window_seconds summed, and a share of what is left granted (an eighth, 1..64: exact near the
      // limit, one round trip per 64 requests far from it), one key at a time cluster-wide. Nothing left: the
      // seconds until the oldest counted second leaves the window.
      await sql`
        create function platform.take_api_key_requests(
          p_key text, p_limit integer, p_window_seconds integer, p_return integer, p_return_bucket bigint)
        returns table (granted integer, lease_bucket bigint, ms_into_bucket integer, retry_after_seconds integer)
        language plpgsql as $$
        declare
          now_ms bigint := floor(extract(epoch from clock_timestamp()) * 1000)::bigint;
          current_bucket bigint := now_ms / 1000;
          used bigint;
          oldest bigint;
          share integer;
        begin
          perform pg_advisory_xact_lock(hashtextextended('platform.api_key_request_buckets:' || p_key, 0));
          if p_return > 0 then
            update platform.api_key_request_buckets w set count = greatest(0, w.count - p_return)
              where w.key_id = p_key and w.bucket = p_return_bucket;
          end if;
          delete from platform.api_key_request_buckets w
            where w.key_id = p_key and w.bucket <= current_bucket - p_window_seconds;
          select coalesce(sum(w.count), 0), min(w.bucket) filter (where w.count > 0) into used, oldest
            from platform.api_key_request_buckets w where w.key_id = p_key;
          share := least(p_limit - used, greatest(1, least(64, (p_limit - used) / 8)));
          if share > 0 then
            insert into platform.api_key_request_buckets as w (key_id, bucket, count)
              values (p_key, current_bucket, share)
              on conflict on constraint api_key_request_buckets_pkey do update set count = w.count + share;
            return query select share, current_bucket, (now_ms - current_bucket * 1000)::integer, 0;
          else
            return query select 0, current_bucket, (now_ms - current_bucket * 1000)::integer,
              greatest(1, coalesce(oldest, current_bucket) + p_window_seconds - current_bucket)::integer;
          end if;
        end $$`.execute(db);
    },
  },
  "0021_fold_into_keyed_job": {
    async up(db: Kysely<unknown>) {
      // A write's submission folds into its signer's pending send run instead of updating that run's job row (which
      // every submission of the signer would otherwise lock until its commit, one after another, and each add_job
      // NOTIFYs). A pending run is one no worker has taken and that is due; else add_job as before. The shared lock,
      // held to commit, is what a run of the key waits for before it reads (host/worker/keyed-job-barrier.ts); the
      // check runs after it is taken (a new snapshot per statement in a volatile function), so a run that took the
      // job meanwhile is seen as taken and a new job is added. Reads graphile-worker's public jobs view.
      await sql`
        create function platform.keyed_job_lock(p_job_key text) returns bigint language sql immutable
        as $$ select hashtextextended('keyed-job:' || p_job_key, 0) $$`.execute(db);
      await sql`
        create function platform.fold_into_keyed_job(
          p_task text, p_payload json, p_queue_name text, p_job_key text, p_max_attempts integer)
        returns bigint
        language plpgsql as $$
        declare
          pending bigint;
        begin
          perform pg_advisory_xact_lock_shared(platform.keyed_job_lock(p_job_key));
          select j.id into pending from graphile_worker.jobs j
            where j.key = p_job_key and j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now();
          if pending is not null then
            return pending;
          end if;
          return (graphile_worker.add_job(p_task, p_payload, queue_name => p_queue_name, job_key => p_job_key,
            max_attempts => p_max_attempts)).id;
        end $$`.execute(db);
    },
  },
  "0022_table_versions": {
    async up(db: Kysely<unknown>) {
      // Collections keep their total and facets per table version (host/db/table-versions.ts).
      await createTableVersions(db);
      await versionTable(db, "platform", "transaction_requests");
    },
  },
  "0023_organization_readiness_gate": {
    async up(db: Kysely<unknown>) {
      // The organisation `npm start` creates for its operator: /readyz waits for its system on every served chain.
      await sql`alter table platform.organizations add column gates_readiness boolean not null default false`.execute(
        db,
      );
    },
  },
  "0024_request_summaries": {
    async up(db: Kysely<unknown>) {
      // Descriptions were the decoded call in full: kilobytes of hex for a token with features. Rewrite those.
      const { describeCall } = await import("../mutations/describe.ts");
      await describeRequests(db, describeCall, sql`description is null or length(description) > 200`);
    },
  },
  "0025_idempotent_responses": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .withSchema("platform")
        .createTable("idempotent_responses")
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("caller", "text", (c) => c.notNull())
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("fingerprint", "text", (c) => c.notNull())
        .addColumn("status_code", "integer")
        .addColumn("body", "text")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("idempotent_responses_pk", ["organization_id", "caller", "key"])
        .execute();
      await db.schema
        .withSchema("platform")
        .createIndex("idempotent_responses_age")
        .on("idempotent_responses")
        .columns(["organization_id", "created_at"])
        .execute();
    },
  },
  "0026_platform_roles": {
    async up(db: Kysely<unknown>) {
      // Roles of the whole platform, held by a user and not through an organisation (host/auth/platform-roles.ts):
      // the platform operator runs the workers every organisation shares. Only the CLI and the first start grant one.
      await sql`alter table platform.users add column platform_roles text[] not null default '{}'
        check (platform_roles <@ array['platformOperator']::text[])`.execute(db);
    },
  },
  "0027_request_changes_and_wake_jobs": {
    async up(db: Kysely<unknown>) {
      // A waiter on a request (Prefer: wait) is woken by its change, from whichever process made it
      // (host/mutations/wait-for-terminal.ts), instead of reading the row in a loop.
      await createNotifyTrigger(db, {
        table: "transaction_requests",
        channel: TRANSACTION_REQUEST_CHANNEL,
        keyColumn: "id",
        columns: ["status", "transaction_hash"],
      });
      // A multi-step job (a smart wallet's deployment) names its next run on the request it waits for: queued in the
      // transaction that ends the request, on any path (completed, failed, dead-lettered, cancelled).
      await sql`alter table platform.transaction_requests add column wake_job jsonb`.execute(db);
      await sql`
        create function platform.wake_job_of_request() returns trigger language plpgsql as $$
        begin
          perform graphile_worker.add_job(new.wake_job->>'task', (new.wake_job->'payload')::json,
            queue_name => new.wake_job->>'queueName', job_key => new.wake_job->>'jobKey');
          return null;
        end $$`.execute(db);
      await sql`
        create trigger transaction_request_wakes_job
        after update on platform.transaction_requests for each row
        when (new.wake_job is not null and old.status is distinct from new.status
              and new.status in ('COMPLETED', 'FAILED', 'DEAD_LETTER', 'CANCELLED'))
        execute function platform.wake_job_of_request()`.execute(db);
    },
  },
  "0028_broadcast_hashes": {
    async up(db: Kysely<unknown>) {
      // Every hash a request was broadcast as, oldest first: fee bumps (same nonce) and signings anew (another
      // nonce) alike. Recorded by the row itself, so no path that sets transaction_hash can forget it.
      await sql`alter table platform.transaction_requests
        add column broadcast_hashes text[] not null default '{}'`.execute(db);
      await sql`update platform.transaction_requests
        set broadcast_hashes = replaced_hashes || coalesce(array[transaction_hash], '{}')
        where transaction_hash is not null or cardinality(replaced_hashes) > 0`.execute(db);
      await sql`
        create function platform.record_broadcast_hash() returns trigger language plpgsql as $$
        begin
          if new.transaction_hash is not null and not (new.transaction_hash = any(new.broadcast_hashes)) then
            new.broadcast_hashes := array_append(new.broadcast_hashes, new.transaction_hash);
          end if;
          return new;
        end $$`.execute(db);
      await sql`
        create trigger transaction_request_broadcast_hash
        before insert or update of transaction_hash on platform.transaction_requests for each row
        execute function platform.record_broadcast_hash()`.execute(db);
    },
  },
  "0029_write_finality": {
    async up(db: Kysely<unknown>) {
      // A COMPLETED write is watched until its block is final (host/worker/watch-finality.ts). Writes completed
      // before this version are taken as final: their blocks are old, and checking each would sweep the whole table.
      await sql`alter table platform.transaction_requests add column finalized_at timestamptz,
        add column reorgs integer not null default 0`.execute(db);
      await sql`update platform.transaction_requests set finalized_at = updated_at where status = 'COMPLETED'`.execute(
        db,
      );
      await sql`create index transaction_requests_unfinal on platform.transaction_requests (chain_id, block_number)
        where status = 'COMPLETED' and finalized_at is null and executor = 'eoa'`.execute(db);
      // The monitoring's count of reorged writes reads only these.
      await sql`create index transaction_requests_reorged on platform.transaction_requests (chain_id)
        where reorgs > 0`.execute(db);
    },
  },
  "0030_request_result_context": {
    async up(db: Kysely<unknown>) {
      // What the route knew when it queued the write and the receipt cannot say (a claim topic's name beside its
      // id): merged into the request's result once mined (SubmitInput.resultContext).
      await sql`alter table platform.transaction_requests add column result_context jsonb`.execute(db);
    },
  },
  "0031_transaction_speed": {
    async up(db: Kysely<unknown>) {
      // X-Transaction-Speed: the write's fees (and its fee bumps') come from this speed; earlier writes were standard.
      await sql`alter table platform.transaction_requests add column speed text not null default 'standard'
        check (speed in ('slow', 'standard', 'fast'))`.execute(db);
    },
  },
  "0032_webhook_lifecycle": {
    async up(db: Kysely<unknown>) {
      // The whole lifecycle of an event (host/events/lifecycle-rules.ts): each state names the one it follows (a
      // delivery waits for that one's), a final event its block, so a reorg deeper than the depth can recall it.
      await sql`alter table platform.webhook_outbox
        add column previous_evt_id text references platform.webhook_outbox (id),
        add column block_number bigint,
        add column block_hash text`.execute(db);
      await sql`create index webhook_outbox_previous on platform.webhook_outbox (previous_evt_id)
        where previous_evt_id is not null`.execute(db);
      await sql`create index webhook_outbox_final_block on platform.webhook_outbox (chain_id, block_number)
        where lifecycle_state = 'final' and block_number is not null`.execute(db);
      // The blocks final events were told in, with the hash the chain had then (host/events/recalls.ts).
      await db.schema
        .withSchema("platform")
        .createTable("webhook_final_blocks")
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("webhook_final_blocks_pkey", ["chain_id", "block_number"])
        .execute();
      // A write that ends without being mined (failed, dead-lettered, cancelled) retracts the pending events its
      // broadcast told, on whichever path ends it.
      await sql`
        create function platform.retract_pending_events() returns trigger language plpgsql as $$
        begin
          insert into platform.webhook_outbox (id, organization_id, type, payload, related, idempotency_key,
            dedupe_key, lifecycle_state, retracted_evt_id, previous_evt_id, chain_id, transaction_hash, request_id)
          select 'evt_' || gen_random_uuid(), p.organization_id, p.type, p.payload, p.related, p.idempotency_key,
            'retracts:' || p.id, 'retracted', p.id, p.id, p.chain_id, p.transaction_hash, p.request_id
          from platform.webhook_outbox p
          where p.organization_id = new.organization_id and p.request_id = new.id and p.lifecycle_state = 'pending'
            and not exists (select 1 from platform.webhook_outbox f where f.previous_evt_id = p.id)
          on conflict (organization_id, dedupe_key) do nothing;
          return null;
        end $$`.execute(db);
      await sql`
        create trigger transaction_request_retracts_pending
        after update on platform.transaction_requests for each row
        when (old.status is distinct from new.status and new.status in ('FAILED', 'DEAD_LETTER', 'CANCELLED'))
        execute function platform.retract_pending_events()`.execute(db);
    },
  },
  "0033_custody_providers": {
    async up(db: Kysely<unknown>) {
      // Which custody provider holds an organisation's keys (host/custody/): a sealed seed (`software`) or keys
      // inside an HSM token (`pkcs11`, no seed at all).
      await sql`alter table platform.custody_seeds
        add column provider text not null default 'software' check (provider in ('software', 'pkcs11')),
        alter column encrypted_seed drop not null`.execute(db);
      // What a key may sign (host/custody/classification.ts).
      await sql`alter table platform.wallets add column custody_classification text not null default 'operational'
        check (custody_classification in ('operational', 'treasury'))`.execute(db);
      // The signing audit log: one row per signature, appended only; digests and labels, never key material.
      await sql`create table platform.custody_signatures (
        id text primary key,
        organization_id text not null references platform.organizations(id),
        request_id text,
        key_label text not null,
        address text not null,
        digest text not null,
        kind text not null,
        caller text not null,
        signed_at timestamptz not null default now())`.execute(db);
      await sql`create index custody_signatures_by_organization
        on platform.custody_signatures (organization_id, signed_at, id)`.execute(db);
      // Custody partitions (one per organisation) and the approvals of their current activation round.
      await sql`create table platform.custody_partitions (
        id text primary key,
        organization_id text not null unique references platform.organizations(id),
        active_until timestamptz,
        created_at timestamptz not null default now())`.execute(db);
      await sql`create table platform.custody_activation_approvals (
        partition_id text not null references platform.custody_partitions(id),
        user_id text not null references platform.users(id),
        approved_at timestamptz not null default now(),
        primary key (partition_id, user_id))`.execute(db);
    },
  },
  "0034_index_builds": {
    async up(db: Kysely<unknown>) {
      // Blue/green index builds (host/db/index-builds.ts): per views schema, the build the indexer backfills into
      // its own schema while the views keep serving the previous one; null once the views serve the running build.
      await sql`create table platform.index_builds (
        views_schema text primary key,
        building text,
        updated_at timestamptz not null default now())`.execute(db);
    },
  },
  "0035_custody_key_moves": {
    async up(db: Kysely<unknown>) {
      // An organisation moved from software custody to an HSM (host/custody/key-move.ts): each key names its provider
      // (null: the organisation's), and a replaced key names its successor; it signs only its writes in flight.
      await sql`alter table platform.wallets
        add column custody_provider text check (custody_provider in ('software', 'pkcs11')),
        add column successor_address text`.execute(db);
      // The value limit of a key's classification (host/custody/classification.ts): null, none.
      await sql`alter table platform.wallets add column custody_max_value numeric(78, 0)`.execute(db);
      await sql`create index wallets_by_successor on platform.wallets (successor_address)
        where successor_address is not null`.execute(db);
    },
  },
  "0036_request_authorization_list": {
    async up(db: Kysely<unknown>) {
      // An EIP-7702 write's signed authorisations (SubmitInput.authorizationList): kept with the request so that a
      // signing after a crash or a requeue sends the same list in its type-4 transaction.
      await sql`alter table platform.transaction_requests add column authorization_list jsonb`.execute(db);
    },
  },
  "0037_reverted_write_finality": {
    async up(db: Kysely<unknown>) {
      // A write mined and reverted (FAILED with a block) is watched until its block is final too: a reorg that removes
      // it frees its nonce, and its bytes must go out again (host/worker/watch-finality.ts). Those reverted before this
      // version are taken as final, as 0029 took completed ones.
      await sql`update platform.transaction_requests set finalized_at = updated_at
        where status = 'FAILED' and block_number is not null and finalized_at is null`.execute(db);
      await sql`drop index platform.transaction_requests_unfinal`.execute(db);
      await sql`create index transaction_requests_unfinal on platform.transaction_requests (chain_id, block_number)
        where status in ('COMPLETED', 'FAILED') and block_number is not null and finalized_at is null
          and executor = 'eoa'`.execute(db);
    },
  },
  "0038_api_key_lease_wants": {
    async up(db: Kysely<unknown>) {
      // A lease of up to p_want requests (host/auth/rate-limit.ts asks more for a key whose lease runs out within its
      // second): a burst of 128 requests of one key waited for two round trips of 64 in turn. 0020's leases taken one
      // after another in one transaction while each is a full share (64: far from the limit; near it, one lease as
      // before, exact there), all in the first one's second: a share the clock moved on to the next second for is
      // handed back at once.
      await sql`
        create function platform.take_api_key_requests(
          p_key text, p_limit integer, p_window_seconds integer, p_return integer, p_return_bucket bigint,
          p_want integer)
        returns table (granted integer, lease_bucket bigint, ms_into_bucket integer, retry_after_seconds integer)
        language plpgsql as $$
        declare
          lease record;
          more record;
          total integer;
          last integer;
        begin
          select * into lease from platform.take_api_key_requests(p_key, p_limit, p_window_seconds, p_return,
            p_return_bucket) as t;
          total := lease.granted;
          last := lease.granted;
          while last = 64 and total < p_want loop
            select * into more from platform.take_api_key_requests(p_key, p_limit, p_window_seconds, 0, null) as t;
            if more.lease_bucket <> lease.lease_bucket then
              update platform.api_key_request_buckets w set count = greatest(0, w.count - more.granted)
                where w.key_id = p_key and w.bucket = more.lease_bucket;
              exit;
            end if;
            total := total + more.granted;
            last := more.granted;
          end loop;
          return query select total, lease.lease_bucket, lease.ms_into_bucket, lease.retry_after_seconds;
        end $$`.execute(db);
    },
  },
};

/** Sets the description of the requests `where` selects, from their kind, target and calldata. */
async function describeRequests(
  db: Kysely<unknown>,
  describeCall: (kind: string, to: string, data: string) => string,
  where: RawBuilder<unknown>,
) {
  const rows = await sql<{ id: string; kind: string; to_address: string; data: string }>`
    select id, kind, to_address, data from platform.transaction_requests where ${where}`.execute(db);
  for (const row of rows.rows) {
    const description = describeCall(row.kind, row.to_address, row.data);
    await sql`update platform.transaction_requests set description = ${description} where id = ${row.id}`.execute(db);
  }
}

/** Core first, then every plugin's list in plugin order. */
export async function migrate(db: Kysely<unknown>, plugins: PluginMigrations[] = []): Promise<void> {
  await sql`create schema if not exists platform`.execute(db);
  await adoptLegacySteps(db, plugins);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => coreMigrations },
    migrationTableSchema: "platform",
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  await migratePlugins(db, plugins);
}
