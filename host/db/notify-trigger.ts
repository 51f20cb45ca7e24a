// A row's change told to waiters in every process: after an update of `columns`, NOTIFY `channel` with the row's
// key column (host/db/wait-for-change.ts wakes on it). For migrations, the host's and the plugins'.
import { type Kysely, sql } from "kysely";

export async function createNotifyTrigger(
  db: Kysely<unknown>,
  options: { table: string; channel: string; keyColumn: string; columns: string[] },
): Promise<void> {
  const { table, channel, keyColumn, columns } = options;
  for (const name of [table, channel, keyColumn, ...columns])
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Invalid name in a notify trigger: ${name}`);
  const changed = columns.map((column) => `old.${column} is distinct from new.${column}`).join(" or ");
  await sql`
    create function ${sql.raw(`platform.notify_${channel}`)}() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(channel)}, new.${sql.raw(keyColumn)}::text);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger ${sql.raw(channel)} after update on ${sql.table(`platform.${table}`)} for each row
    when (${sql.raw(changed)})
    execute function ${sql.raw(`platform.notify_${channel}`)}()`.execute(db);
}
