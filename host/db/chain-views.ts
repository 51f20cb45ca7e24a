// One chain's view of the Ledger Index: a schema per chain whose views select that chain's rows of each index view
// (`<views schema>_chain_<id>`), so a reader bound to it (Databases.ledgerOn) sees one chain in every table and join
// without naming it. The supervisor publishes them with the views schema (host/db/index-builds.ts); it drops them
// before the indexer restarts on the build they serve, so the host's gate waits for that build's re-read blocks.
import type pg from "pg";
import { inTransaction } from "./in-transaction.ts";

export const chainViewsSchema = (viewsSchema: string, chainId: number) => `${viewsSchema}_chain_${chainId}`;

export const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function dropChainViews(pool: pg.Pool, viewsSchema: string): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    "select nspname as name from pg_namespace where nspname like $1",
    [`${viewsSchema.replace(/[\\%_]/g, "\\$&")}\\_chain\\_%`],
  );
  for (const { name } of rows) await pool.query(`drop schema if exists ${quoted(name)} cascade`);
}

/** Creates (or replaces) each chain's views over every index view that has a chain_id column, in one transaction. */
export async function createChainViews(pool: pg.Pool, viewsSchema: string, chainIds: number[]): Promise<void> {
  await inTransaction(pool, (client) => createChainViewsIn(client, viewsSchema, chainIds));
}

/** createChainViews inside the caller's transaction (host/db/index-builds.ts publishes them with the views). */
export async function createChainViewsIn(client: pg.ClientBase, viewsSchema: string, chainIds: number[]) {
  const { rows } = await client.query<{ table: string }>(
    `select c.table_name as table from information_schema.columns c
     where c.table_schema = $1 and c.column_name = 'chain_id' order by 1`,
    [viewsSchema],
  );
  for (const chainId of chainIds) {
    const schema = quoted(chainViewsSchema(viewsSchema, chainId));
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query(`create schema ${schema}`);
    for (const { table } of rows) {
      await client.query(
        `create view ${schema}.${quoted(table)} as select * from ${quoted(viewsSchema)}.${quoted(table)} where chain_id = ${Number(chainId)}`,
      );
    }
  }
}

/**
 * Which publication of a chain's views is in place (its `token` view's oid: every createChainViews makes new ones),
 * or null while there is none. A reader that saw one publication caught up knows a later one may not be yet.
 */
export async function chainViewsPublication(
  pool: pg.Pool,
  viewsSchema: string,
  chainId: number,
): Promise<string | null> {
  const { rows } = await pool.query<{ oid: string | null }>("select to_regclass($1)::oid::text as oid", [
    `${quoted(chainViewsSchema(viewsSchema, chainId))}."token"`,
  ]);
  return rows[0]?.oid ?? null;
}

/** Whether `error` is a query's failure on a chain's view that is not there (dropped until the indexer is ready). */
export function isMissingChainView(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // 42P01 undefined_table, 3F000 invalid_schema_name, on a relation of a `<views schema>_chain_<id>` schema.
  return (code === "42P01" || code === "3F000") && typeof message === "string" && /_chain_\d+/.test(message);
}

/** Whether a chain's views exist (the indexer was ready and the supervisor made them). */
export async function chainViewsExist(pool: pg.Pool, viewsSchema: string, chainId: number): Promise<boolean> {
  const { rows } = await pool.query<{ ok: boolean }>("select to_regclass($1) is not null as ok", [
    `${quoted(chainViewsSchema(viewsSchema, chainId))}."token"`,
  ]);
  return rows[0]?.ok === true;
}
