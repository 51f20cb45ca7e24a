// Migrations per plugin against a real PostgreSQL: a database migrated by the former single list (every table in
// kysely's table) upgrades cleanly, keeping its rows; a fresh one gets the same schema; a plugin's list is checked.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreMigrations, migrate } from "../host/db/migrations.ts";
import type { PluginMigration } from "../host/plugin.ts";
import { composePlugins, type PluginMigrations } from "../host/plugin-host.ts";
import { plugins } from "../plugins/index.ts";
import { removeDataDir } from "../scripts/infra/data-dir.ts";
import { type Database, otherDatabaseUrl, startPostgres } from "../scripts/infra/postgres.ts";
import { freePort } from "./support/stack.ts";

const pluginLists = composePlugins(plugins).migrations;

/**
 * The former single list, in its order: today's core steps up to 0014 and the plugins' adopted steps under their
 * legacy names (0008 compliance templates, 0010 token templates).
 */
function legacyList(): Record<string, Migration> {
  const steps: [string, Migration][] = Object.entries(coreMigrations).filter(([name]) => name <= "0014");
  for (const { migrations } of pluginLists) {
    for (const m of migrations) if (m.legacyName) steps.push([m.legacyName, { up: m.up }]);
  }
  return Object.fromEntries(steps.sort(([a], [b]) => a.localeCompare(b)));
}

async function schemaOf(db: Kysely<unknown>) {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type from information_schema.columns where table_schema = 'platform'
    order by table_name, column_name`.execute(db);
  return rows.map((r) => `${r.table_name}.${r.column_name} ${r.data_type}`);
}

const tablesOf = (schema: string[]) => [...new Set(schema.map((line) => line.split(".")[0]))];

describe("plugin migrations", () => {
  let dataDir: string;
  let server: Database;
  const opened: Kysely<unknown>[] = [];

  async function database(name: string): Promise<Kysely<unknown>> {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const pool = new pg.Pool({ connectionString: otherDatabaseUrl(server.url, name), max: 2 });
    pool.on("error", () => {});
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    opened.push(db);
    return db;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "plugin-migrations-"));
    server = await startPostgres({ dataDir, port: await freePort() });
  });

  afterAll(async () => {
    for (const db of opened) await db.destroy();
    await server?.stop();
    if (dataDir) removeDataDir(dataDir);
  });

  it("upgrades a database of the former single list without re-running a step, and a fresh one gets every table", async () => {
    const legacy = await database("legacy");
    await sql`create schema platform`.execute(legacy);
    const former = new Migrator({
      db: legacy,
      provider: { getMigrations: async () => legacyList() },
      migrationTableSchema: "platform",
    });
    const formerRun = await former.migrateToLatest();
    expect(formerRun.error).toBeUndefined();
    expect(formerRun.results?.map((r) => r.migrationName)).toContain("0010_token_templates");
    await sql`insert into platform.organizations (id, name, default_chain_id) values ('org', 'Org', 31337)`.execute(
      legacy,
    );
    await sql`insert into platform.token_templates (id, organization_id, name, required_features, allowed_features,
      defaults, created_by) values ('tt', 'org', 'Kept', '{}', '{}', '{}'::jsonb, 'me')`.execute(legacy);

    await migrate(legacy, pluginLists);
    await migrate(legacy, pluginLists); // a second start: nothing to do

    const kyselyNames = await sql<{ name: string }>`select name from platform.kysely_migration order by name`.execute(
      legacy,
    );
    expect(kyselyNames.rows.map((r) => r.name)).toEqual(Object.keys(coreMigrations));
    const pluginNames = await sql<{ plugin_id: string; name: string }>`
      select plugin_id, name from platform.plugin_migrations order by plugin_id, name`.execute(legacy);
    // Every step of every composed plugin, recorded once.
    const declared = pluginLists
      .flatMap(({ pluginId, migrations }) => migrations.map(({ name }) => ({ plugin_id: pluginId, name })))
      .sort((a, b) => (a.plugin_id === b.plugin_id ? (a.name < b.name ? -1 : 1) : a.plugin_id < b.plugin_id ? -1 : 1));
    expect(pluginNames.rows).toEqual(declared);
    expect(declared).toContainEqual({ plugin_id: "tokens", name: "0001_token_templates" });
    const kept = await sql<{ name: string }>`select name from platform.token_templates`.execute(legacy);
    expect(kept.rows).toEqual([{ name: "Kept" }]);
    const library = await sql<{ n: number }>`
      select count(*)::int as n from platform.compliance_templates where is_system`.execute(legacy);
    expect(library.rows[0]?.n).toBeGreaterThan(0);

    const fresh = await database("fresh");
    await migrate(fresh, pluginLists);
    const freshSchema = await schemaOf(fresh);
    expect(freshSchema).toEqual(await schemaOf(legacy));
    expect(tablesOf(freshSchema)).toEqual(
      expect.arrayContaining(["compliance_templates", "token_templates", "webhook_outbox", "plugin_migrations"]),
    );
    // The core list alone creates no plugin's table.
    const coreOnly = await database("core_only");
    await migrate(coreOnly, []);
    expect(tablesOf(await schemaOf(coreOnly)).filter((t) => t.endsWith("_templates"))).toEqual([]);
  });

  it("runs a plugin's steps once in order and refuses a list that lost an applied step", async () => {
    const db = await database("runner");
    const ran: string[] = [];
    const step = (name: string): PluginMigration => ({
      name,
      async up(trx) {
        ran.push(name);
        await sql`create table ${sql.table(`platform.t_${name}`)} (id int)`.execute(trx);
      },
    });
    const list = (...names: string[]): PluginMigrations[] => [{ pluginId: "demo", migrations: names.map(step) }];
    await migrate(db, list("0001_a"));
    await migrate(db, list("0001_a", "0002_b"));
    expect(ran).toEqual(["0001_a", "0002_b"]);
    await expect(migrate(db, list("0002_b"))).rejects.toThrow(
      'Plugin "demo" no longer declares its applied migration "0001_a"',
    );
    await expect(migrate(db, list("0001_a", "0001_a"))).rejects.toThrow('declares the migration "0001_a" twice');
    // A failing step names itself and leaves nothing behind.
    const failing: PluginMigrations[] = [
      {
        pluginId: "demo",
        migrations: [
          ...list("0001_a", "0002_b")[0].migrations,
          step("0003_c"),
          { name: "0004_d", up: () => Promise.reject(new Error("boom")) },
        ],
      },
    ];
    await expect(migrate(db, failing)).rejects.toThrow("Migration demo/0004_d failed: Error: boom");
    const c = await sql<{ t: string | null }>`select to_regclass('platform.t_0003_c')::text as t`.execute(db);
    expect(c.rows[0]?.t).toBeNull();
  });
});
