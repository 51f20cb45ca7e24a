// Per-table change versions, for answers kept between requests that must never be served stale (a collection's total
// and facets, host/collections/kept-meta.ts). A statement-level trigger appends a row to platform.table_changes in
// the writer's transaction (an insert: no writer ever waits on another); a reader sums the table's rows inside its
// own statement, so the sum counts exactly the committed writes its snapshot sees, and an equal sum later means an
// unchanged table. Now and then a writer folds the table's committed rows into one, keeping the sum.
import { type Kysely, type RawBuilder, sql } from "kysely";

/** One statement in this many folds the table's rows (the rows a reader sums stay few). */
const FOLD_EVERY = 64;

export async function createTableVersions(db: Kysely<unknown>): Promise<void> {
  await sql`create table platform.table_changes (
      id bigint generated always as identity primary key, table_name text not null, changes bigint not null)`.execute(
    db,
  );
  await sql`create index table_changes_by_table on platform.table_changes (table_name) include (changes)`.execute(db);
  // The fold runs only under READ COMMITTED (a repeatable-read writer could meet a row another fold deleted) and in one
  // writer at a time (a try-lock: no one waits); its deletes and its sum row commit together.
  await sql`
    create function platform.note_table_change() returns trigger language plpgsql as $$
    declare
      noted bigint;
    begin
      insert into platform.table_changes (table_name, changes) values (tg_table_name, 1) returning id into noted;
      if noted % ${sql.lit(FOLD_EVERY)} = 0
        and current_setting('transaction_isolation') = 'read committed'
        and pg_try_advisory_xact_lock(hashtextextended('table_changes:' || tg_table_name, 0)) then
        with folded as (
          delete from platform.table_changes where table_name = tg_table_name and id < noted returning changes)
        insert into platform.table_changes (table_name, changes)
          select tg_table_name, sum(changes) from folded having count(*) > 0;
      end if;
      return null;
    end $$`.execute(db);
}

/** Versions `table`: every statement that writes it (rows or not) changes its version. */
export async function versionTable(db: Kysely<unknown>, schema: string, table: string): Promise<void> {
  await sql`
    create trigger ${sql.raw(`${table}_version`)}
    after insert or update or delete or truncate on ${sql.table(`${schema}.${table}`)}
    for each statement execute function platform.note_table_change()`.execute(db);
}

/**
 * The tables' version as text (a scalar subquery for the reader's own statement). It names its database (the
 * server's start and the database's name): answers are kept per process, and two platforms in one process, or one
 * after another on a copied data directory, count their changes from the same start.
 */
export function tableVersion(tables: readonly string[]): RawBuilder<string> {
  return sql<string>`(select coalesce(sum(changes), 0)::text || '@' || current_database() || '@' || pg_postmaster_start_time()::text from platform.table_changes where table_name in (${sql.join(tables)}))`;
}
