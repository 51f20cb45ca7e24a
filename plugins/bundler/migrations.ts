// The bundler's mempool and settings; each step runs once (platform.plugin_migrations). Add steps, never edit one.
import { type Kysely, sql } from "kysely";
import { createNotifyTrigger } from "../../host/db/notify-trigger.ts";
import type { PluginMigration } from "../../host/plugin.ts";
import { USER_OPERATION_CHANNEL } from "./tables.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_mempool",
    async up(db: Kysely<unknown>) {
      const s = db.schema.withSchema("platform");
      await s
        .createTable("bundler_user_operations")
        .addColumn("user_op_hash", "text", (c) => c.primaryKey())
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("entry_point", "text", (c) => c.notNull())
        .addColumn("sender", "text", (c) => c.notNull())
        .addColumn("nonce", "numeric(78, 0)", (c) => c.notNull())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("user_operation", "jsonb", (c) => c.notNull())
        .addColumn("packed_operation", "jsonb", (c) => c.notNull())
        .addColumn("max_fee_per_gas", "numeric(78, 0)", (c) => c.notNull())
        .addColumn("max_priority_fee_per_gas", "numeric(78, 0)", (c) => c.notNull())
        .addColumn("status", "text", (c) =>
          c.notNull().check(sql`status in ('pending','submitted','included','failed')`),
        )
        .addColumn("transaction_request_id", "text", (c) => c.references("platform.transaction_requests.id"))
        .addColumn("transaction_hash", "text")
        .addColumn("failure_reason", "text")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // One live operation per sender and nonce: a second one replaces it (higher fees) or is refused.
      await sql`create unique index bundler_user_operations_live on platform.bundler_user_operations
        (chain_id, entry_point, sender, nonce) where status in ('pending', 'submitted')`.execute(db);
      await sql`create index bundler_user_operations_pending on platform.bundler_user_operations
        (chain_id, organization_id, created_at) where status = 'pending'`.execute(db);
      await sql`create index bundler_user_operations_request on platform.bundler_user_operations
        (transaction_request_id)`.execute(db);
      await s
        .createTable("bundler_settings")
        .addColumn("chain_id", "integer", (c) => c.primaryKey())
        .addColumn("bundling_mode", "text", (c) => c.notNull().check(sql`bundling_mode in ('auto','manual')`))
        .execute();
    },
  },
  {
    // Sponsorship limits per sender (sponsorship-limits.ts): the paymaster and maximum charge of each operation.
    name: "0002_sponsorship_limits",
    async up(db: Kysely<unknown>) {
      await sql`alter table platform.bundler_user_operations add column paymaster text,
        add column max_charge numeric(78, 0)`.execute(db);
      await sql`create index bundler_user_operations_sponsored on platform.bundler_user_operations
        (chain_id, sender, created_at) where paymaster is not null`.execute(db);
    },
  },
  {
    // debug_bundler_sendBundleNow waits for its operation to be bundled: woken by the change, from any worker.
    name: "0003_user_operation_changes",
    async up(db: Kysely<unknown>) {
      await createNotifyTrigger(db, {
        table: "bundler_user_operations",
        channel: USER_OPERATION_CHANNEL,
        keyColumn: "user_op_hash",
        columns: ["status", "transaction_request_id"],
      });
    },
  },
  {
    // One partition per EntryPoint (v0.8, v0.7): a bundling run reads one EntryPoint's pending operations at a time.
    name: "0004_entry_point_partitions",
    async up(db: Kysely<unknown>) {
      await sql`drop index platform.bundler_user_operations_pending`.execute(db);
      await sql`create index bundler_user_operations_pending on platform.bundler_user_operations
        (chain_id, entry_point, organization_id, created_at) where status = 'pending'`.execute(db);
    },
  },
  {
    // ERC-7562 reputation (reputation.ts): counters per chain, EntryPoint and entity, and each operation's factory
    // so that the live operations naming an entity can be counted.
    name: "0005_reputation",
    async up(db: Kysely<unknown>) {
      await db.schema
        .withSchema("platform")
        .createTable("bundler_reputation")
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("entry_point", "text", (c) => c.notNull())
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("ops_seen", "integer", (c) => c.notNull().check(sql`ops_seen >= 0`))
        .addColumn("ops_included", "integer", (c) => c.notNull().check(sql`ops_included >= 0`))
        .addColumn("decayed_at", "timestamptz", (c) => c.notNull())
        .addPrimaryKeyConstraint("bundler_reputation_pkey", ["chain_id", "entry_point", "address"])
        .execute();
      await sql`alter table platform.bundler_user_operations add column factory text`.execute(db);
      await sql`create index bundler_user_operations_live_paymaster on platform.bundler_user_operations
        (chain_id, entry_point, paymaster) where status in ('pending', 'submitted')`.execute(db);
      await sql`create index bundler_user_operations_live_factory on platform.bundler_user_operations
        (chain_id, entry_point, factory) where status in ('pending', 'submitted')`.execute(db);
    },
  },
  {
    // Several executors (bundle.ts): each operation's claiming bundle and its executor, recorded before the bundle's
    // chain write is queued (exactly once under a retried run; a sender's next operations follow its executor).
    name: "0006_bundle_claims",
    async up(db: Kysely<unknown>) {
      await sql`alter table platform.bundler_user_operations add column bundle_id text,
        add column executor text`.execute(db);
      await sql`create index bundler_user_operations_live_bundles on platform.bundler_user_operations
        (chain_id, organization_id) where status = 'submitted'`.execute(db);
    },
  },
  {
    // ERC-7562's COD-010 (code-hashes.ts): the code hashes of the contracts an operation's validation ran (safe mode),
    // checked again before it is bundled.
    name: "0007_validation_code_hashes",
    async up(db: Kysely<unknown>) {
      await sql`alter table platform.bundler_user_operations add column validation_code_hashes jsonb`.execute(db);
    },
  },
  {
    // ERC-7562's THROTTLED_ENTITY_LIVE_BLOCKS (the head at acceptance) and STO-041 (the contracts whose storage the
    // validation accessed), both known only at acceptance; rows accepted before stay null (never held or dropped).
    name: "0008_accepted_block_storage_addresses",
    async up(db: Kysely<unknown>) {
      await sql`alter table platform.bundler_user_operations add column accepted_block numeric(78, 0),
        add column storage_addresses text[]`.execute(db);
    },
  },
  {
    // The usual acceptance writes its row while validation runs (quick-insert.ts): a row still `accepting` is not
    // bundled; the partial index finds those a stopped process left (accepting.ts).
    name: "0009_accepting",
    async up(db: Kysely<unknown>) {
      await sql`alter table platform.bundler_user_operations add column accepting boolean not null default false`.execute(
        db,
      );
      await sql`create index bundler_user_operations_accepting on platform.bundler_user_operations (chain_id, entry_point)
        where accepting`.execute(db);
    },
  },
  {
    // A sender's acceptances one at a time (its room in the mempool is counted, then taken): a transaction-level
    // advisory lock per chain, EntryPoint and sender, taken first by both acceptances. The usual one's write is a
    // function, so that its insert is a statement of its own after the lock: its snapshot then sees what the lock's
    // previous holder committed (one statement's snapshot is taken before it waits, and misses rows inserted since).
    name: "0010_sender_lock",
    async up(db: Kysely<unknown>) {
      await sql`create function platform.bundler_lock_sender(p_chain_id integer, p_entry_point text, p_sender text)
        returns void language sql volatile as $$
          select pg_advisory_xact_lock(hashtextextended('bundler.sender:' || p_chain_id || ':' || p_entry_point || ':'
            || p_sender, 0))
        $$`.execute(db);
      await sql`create function platform.bundler_insert_unless_contended(p_user_op_hash text, p_chain_id integer,
          p_entry_point text, p_sender text, p_nonce numeric, p_organization_id text, p_user_operation jsonb,
          p_packed_operation jsonb, p_max_fee_per_gas numeric, p_max_priority_fee_per_gas numeric,
          p_max_waiting integer)
        returns boolean language plpgsql volatile as $$
        begin
          perform platform.bundler_lock_sender(p_chain_id, p_entry_point, p_sender);
          with live as (
            select o.user_op_hash, o.nonce, o.status from platform.bundler_user_operations as o
            where o.chain_id = p_chain_id and o.entry_point = p_entry_point and o.sender = p_sender
              and (o.status in ('pending', 'submitted') or o.user_op_hash = p_user_op_hash)
            for update
          )
          insert into platform.bundler_user_operations (user_op_hash, chain_id, entry_point, sender, nonce,
            organization_id, user_operation, packed_operation, max_fee_per_gas, max_priority_fee_per_gas, status,
            accepting)
          select p_user_op_hash, p_chain_id, p_entry_point, p_sender, p_nonce, p_organization_id, p_user_operation,
            p_packed_operation, p_max_fee_per_gas, p_max_priority_fee_per_gas, 'pending', true
          where not exists (select 1 from live where live.user_op_hash = p_user_op_hash or live.nonce = p_nonce)
            and (select count(*) from live where live.status = 'pending') < p_max_waiting
            -- STO-040: the sender is no live operation's paymaster or factory (sender-entity-rule.ts)
            and not exists (select 1 from platform.bundler_user_operations as e
                            where e.chain_id = p_chain_id and e.entry_point = p_entry_point
                              and e.status in ('pending', 'submitted')
                              and (e.paymaster = p_sender or e.factory = p_sender))
          on conflict do nothing;
          return found;
        end
        $$`.execute(db);
    },
  },
  {
    // The usual acceptance's row written accepted at once when its validation has passed by the time the write holds a
    // connection (quick-insert.ts): under load, about half the acceptances then need no second write (the mark). 0010's
    // function, then the row's `accepting` and code hashes set in the same transaction.
    name: "0011_insert_accepted",
    async up(db: Kysely<unknown>) {
      await sql`create function platform.bundler_insert_unless_contended(p_user_op_hash text, p_chain_id integer,
          p_entry_point text, p_sender text, p_nonce numeric, p_organization_id text, p_user_operation jsonb,
          p_packed_operation jsonb, p_max_fee_per_gas numeric, p_max_priority_fee_per_gas numeric,
          p_max_waiting integer, p_accepting boolean, p_validation_code_hashes jsonb)
        returns boolean language plpgsql volatile as $$
        begin
          if not platform.bundler_insert_unless_contended(p_user_op_hash, p_chain_id, p_entry_point, p_sender, p_nonce,
              p_organization_id, p_user_operation, p_packed_operation, p_max_fee_per_gas, p_max_priority_fee_per_gas,
              p_max_waiting) then
            return false;
          end if;
          if not p_accepting then
            update platform.bundler_user_operations
            set accepting = false, validation_code_hashes = p_validation_code_hashes
            where user_op_hash = p_user_op_hash;
          end if;
          return true;
        end
        $$`.execute(db);
    },
  },
  {
    // 0010's function without the row locks on the sender's live rows (its `for update`): its writes are combined
    // (quick-insert.ts), and a statement holding one sender's rows while it waited for another's deadlocked with a
    // bundle's claim (pending -> submitted) and its inclusion update, which take many senders' rows at once (two
    // deadlocks in a bench run, the claim aborted after PostgreSQL's 1 s deadlock timeout). The sender's lock still
    // orders its acceptances; its room is counted from its rows as committed (off by one at worst while a bundle
    // takes or gives back one of them at that instant).
    name: "0012_quick_insert_without_row_locks",
    async up(db: Kysely<unknown>) {
      await sql`create or replace function platform.bundler_insert_unless_contended(p_user_op_hash text,
          p_chain_id integer, p_entry_point text, p_sender text, p_nonce numeric, p_organization_id text,
          p_user_operation jsonb, p_packed_operation jsonb, p_max_fee_per_gas numeric,
          p_max_priority_fee_per_gas numeric, p_max_waiting integer)
        returns boolean language plpgsql volatile as $$
        begin
          perform platform.bundler_lock_sender(p_chain_id, p_entry_point, p_sender);
          with live as (
            select o.user_op_hash, o.nonce, o.status from platform.bundler_user_operations as o
            where o.chain_id = p_chain_id and o.entry_point = p_entry_point and o.sender = p_sender
              and (o.status in ('pending', 'submitted') or o.user_op_hash = p_user_op_hash)
          )
          insert into platform.bundler_user_operations (user_op_hash, chain_id, entry_point, sender, nonce,
            organization_id, user_operation, packed_operation, max_fee_per_gas, max_priority_fee_per_gas, status,
            accepting)
          select p_user_op_hash, p_chain_id, p_entry_point, p_sender, p_nonce, p_organization_id, p_user_operation,
            p_packed_operation, p_max_fee_per_gas, p_max_priority_fee_per_gas, 'pending', true
          where not exists (select 1 from live where live.user_op_hash = p_user_op_hash or live.nonce = p_nonce)
            and (select count(*) from live where live.status = 'pending') < p_max_waiting
            -- STO-040: the sender is no live operation's paymaster or factory (sender-entity-rule.ts)
            and not exists (select 1 from platform.bundler_user_operations as e
                            where e.chain_id = p_chain_id and e.entry_point = p_entry_point
                              and e.status in ('pending', 'submitted')
                              and (e.paymaster = p_sender or e.factory = p_sender))
          on conflict do nothing;
          return found;
        end
        $$`.execute(db);
    },
  },
  {
    // A bundle's operations found by its id (linkBundle, bundle-claims.ts): without this index the lookup read every
    // row with no chain write yet, the failed operations of all time among them, on every bundle.
    name: "0013_bundle_id_index",
    async up(db: Kysely<unknown>) {
      await sql`create index bundler_user_operations_bundle on platform.bundler_user_operations (bundle_id)
        where bundle_id is not null`.execute(db);
    },
  },
];
