// Blue/green index builds. Each index build (scripts/infra/ponder.ts indexSchemaName) is indexed into a schema of its
// own; readers query the stable views schema, which points at one build's tables (the one it "serves"). A build other
// than the served one backfills from block 0 while the views keep serving the previous build (which no indexer
// advances meanwhile: it lags the chain), and `platform.index_builds.building` names it; once it has reached the
// chain's head, publishIndexBuild points the views at it in one transaction. The supervisor
// (scripts/infra/indexer-part.ts) writes all this; the host's index gate and /readyz read it.
import type pg from "pg";
import { createChainViewsIn, quoted } from "./chain-views.ts";
import { inTransaction } from "./in-transaction.ts";

/** The index build the views schema serves (the schema behind its `_ponder_checkpoint` view), or null when none. */
export async function servedIndexSchema(db: pg.Pool | pg.ClientBase, viewsSchema: string): Promise<string | null> {
  const { rows } = await db.query<{ schema: string }>(
    `select n.nspname as schema
     from pg_rewrite r
     join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
       and d.refclassid = 'pg_class'::regclass and d.refobjid <> r.ev_class
     join pg_class t on t.oid = d.refobjid
     join pg_namespace n on n.oid = t.relnamespace
     where r.ev_class = to_regclass(format('%I._ponder_checkpoint', $1::text))
     limit 1`,
    [viewsSchema],
  );
  return rows[0]?.schema ?? null;
}

/** The build an indexer backfills while the views serve another one (the views lag the chain), or null. */
export async function buildingIndexSchema(pool: pg.Pool, viewsSchema: string): Promise<string | null> {
  const { rows } = await pool.query<{ building: string | null }>(
    "select building from platform.index_builds where views_schema = $1",
    [viewsSchema],
  );
  return rows[0]?.building ?? null;
}

/**
 * Records that the indexer is about to run `schema`: a build other than the served one is `building` (the views keep
 * serving theirs); the served build itself, or the first one, is not. Returns the build the views serve.
 */
export async function recordIndexBuild(pool: pg.Pool, viewsSchema: string, schema: string): Promise<string | null> {
  const served = await servedIndexSchema(pool, viewsSchema);
  const building = served !== null && served !== schema ? schema : null;
  await pool.query(
    `insert into platform.index_builds (views_schema, building) values ($1, $2)
     on conflict (views_schema) do update set building = excluded.building, updated_at = now()`,
    [viewsSchema, building],
  );
  return served;
}

/**
 * Points the views schema at `schema` in one transaction: its views over every table of the build (the `_reorg__`
 * tables aside, as Ponder's own views do), each chain's views over them, and `building` cleared. A reader sees the
 * previous build or this one, never neither.
 */
export async function publishIndexBuild(
  pool: pg.Pool,
  viewsSchema: string,
  schema: string,
  chainIds: number[],
): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query(`create schema if not exists ${quoted(viewsSchema)}`);
    const { rows: chainSchemas } = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where nspname like $1",
      [`${viewsSchema.replace(/[\\%_]/g, "\\$&")}\\_chain\\_%`],
    );
    for (const { name } of chainSchemas) await client.query(`drop schema ${quoted(name)} cascade`);
    const { rows: views } = await client.query<{ name: string }>(
      "select viewname as name from pg_views where schemaname = $1",
      [viewsSchema],
    );
    for (const { name } of views)
      await client.query(`drop view if exists ${quoted(viewsSchema)}.${quoted(name)} cascade`);
    const { rows: tables } = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
         where table_schema = $1 and table_name not like '\\_reorg\\_\\_%' order by 1`,
      [schema],
    );
    if (!tables.some((t) => t.name === "_ponder_checkpoint")) throw new Error(`${schema} holds no index build`);
    for (const { name } of tables) {
      await client.query(
        `create view ${quoted(viewsSchema)}.${quoted(name)} as select * from ${quoted(schema)}.${quoted(name)}`,
      );
    }
    await createChainViewsIn(client, viewsSchema, chainIds);
    await client.query(
      `insert into platform.index_builds (views_schema, building) values ($1, null)
         on conflict (views_schema) do update set building = null, updated_at = now()`,
      [viewsSchema],
    );
  });
}
