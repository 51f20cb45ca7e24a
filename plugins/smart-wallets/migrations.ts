// The smart wallets and their user operations; each step runs once (platform.plugin_migrations). Add steps, never
// edit one.
import { type Kysely, sql } from "kysely";
import { createNotifyTrigger } from "../../host/db/notify-trigger.ts";
import type { PluginMigration } from "../../host/plugin.ts";
import { SMART_WALLET_CHANNEL } from "./tables.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_smart_wallets",
    async up(db: Kysely<unknown>) {
      const s = db.schema.withSchema("platform");
      await s
        .createTable("smart_wallets")
        .addColumn("address", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("participant_id", "text", (c) => c.notNull().references("platform.users.id"))
        .addColumn("validator_type", "text", (c) =>
          c.notNull().check(sql`validator_type in ('ecdsa', 'weighted-multisig')`),
        )
        .addColumn("description", "text")
        .addColumn("signers", "jsonb", (c) => c.notNull())
        .addColumn("threshold", "numeric(20, 0)", (c) => c.notNull())
        .addColumn("salt", "numeric(78, 0)", (c) => c.notNull())
        .addColumn("step", "text", (c) => c.notNull())
        .addColumn("failure", "text")
        .addColumn("failed_step", "text")
        .addColumn("attempt", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint("smart_wallets_one_per_participant", ["organization_id", "chain_id", "participant_id"])
        .execute();
      await s
        .createTable("smart_wallet_operations")
        .addColumn("request_id", "text", (c) => c.primaryKey().references("platform.transaction_requests.id"))
        .addColumn("wallet", "text", (c) => c.notNull())
        .addColumn("user_op_hash", "text", (c) => c.notNull().unique())
        .addColumn("operation", "jsonb", (c) => c.notNull())
        .addColumn("signatures", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await sql`create index smart_wallet_operations_wallet on platform.smart_wallet_operations (wallet, created_at)`.execute(
        db,
      );
    },
  },
  {
    // The same counterfactual address on every chain (deterministic factory, same owners and salt): a wallet is one
    // chain's, keyed by chain and address.
    name: "0002_smart_wallets_per_chain",
    async up(db: Kysely<unknown>) {
      await sql`alter table platform.smart_wallets drop constraint smart_wallets_pkey,
        add primary key (chain_id, address)`.execute(db);
    },
  },
  {
    // Sponsorship is a decision made at creation: by default only wallets whose signers are all custody wallets.
    // Wallets made before were all sponsored.
    name: "0003_smart_wallets_sponsored",
    async up(db: Kysely<unknown>) {
      await sql`alter table platform.smart_wallets add column sponsored boolean not null default true`.execute(db);
    },
  },
  {
    // A creation that waits (Prefer: wait) is woken by its wallet's next deployment step, from any worker process.
    name: "0004_smart_wallet_changes",
    async up(db: Kysely<unknown>) {
      await createNotifyTrigger(db, {
        table: "smart_wallets",
        channel: SMART_WALLET_CHANNEL,
        keyColumn: "address",
        columns: ["step"],
      });
    },
  },
];
