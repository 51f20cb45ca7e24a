// Each plugin's own migrations, tracked per plugin in platform.plugin_migrations (plugin_id, name): a step runs once,
// in list order, in one transaction with its record. Steps that the host's single list once ran (a plugin
// migration's legacyName) are adopted: their record moves from kysely's table to the plugin's.
import { type Kysely, sql } from "kysely";
import type { PluginMigrations } from "../plugin-host.ts";

async function ensureTable(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists platform.plugin_migrations (
    plugin_id text not null,
    name text not null,
    applied_at timestamptz not null default now(),
    primary key (plugin_id, name)
  )`.execute(db);
}

/** Run before the core Migrator, which refuses applied names missing from its list. */
export async function adoptLegacySteps(db: Kysely<unknown>, plugins: PluginMigrations[]): Promise<void> {
  const legacy = plugins.flatMap(({ pluginId, migrations }) =>
    migrations.flatMap((m) => (m.legacyName ? [{ pluginId, name: m.name, legacyName: m.legacyName }] : [])),
  );
  if (!legacy.length) return;
  const { rows } = await sql<{ t: string | null }>`select to_regclass('platform.kysely_migration')::text as t`.execute(
    db,
  );
  if (!rows[0]?.t) return; // a fresh database: nothing to adopt
  await ensureTable(db);
  await db.transaction().execute(async (trx) => {
    for (const step of legacy) {
      const moved = await sql`delete from platform.kysely_migration where name = ${step.legacyName}`.execute(trx);
      if (!moved.numAffectedRows) continue;
      await sql`insert into platform.plugin_migrations (plugin_id, name) values (${step.pluginId}, ${step.name})
        on conflict do nothing`.execute(trx);
    }
  });
}

export async function migratePlugins(db: Kysely<unknown>, plugins: PluginMigrations[]): Promise<void> {
  await ensureTable(db);
  for (const { pluginId, migrations } of plugins) {
    const names = migrations.map((m) => m.name);
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated) throw new Error(`Plugin "${pluginId}" declares the migration "${repeated}" twice`);
    await db.transaction().execute(async (trx) => {
      // One migrating process at a time; the others wait, then find the steps applied.
      await sql`select pg_advisory_xact_lock(hashtext('platform.plugin_migrations'))`.execute(trx);
      const { rows } = await sql<{ name: string }>`select name from platform.plugin_migrations
        where plugin_id = ${pluginId}`.execute(trx);
      const applied = new Set(rows.map((r) => r.name));
      const unknown = [...applied].find((name) => !names.includes(name));
      if (unknown) {
        throw new Error(`Plugin "${pluginId}" no longer declares its applied migration "${unknown}"; restore it`);
      }
      for (const migration of migrations) {
        if (applied.has(migration.name)) continue;
        try {
          await migration.up(trx);
        } catch (error) {
          throw new Error(`Migration ${pluginId}/${migration.name} failed: ${String(error)}`);
        }
        await sql`insert into platform.plugin_migrations (plugin_id, name)
          values (${pluginId}, ${migration.name})`.execute(trx);
      }
    });
  }
}
