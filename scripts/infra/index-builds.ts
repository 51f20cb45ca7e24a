// The index builds left behind once the views serve another one (host/db/index-builds.ts): dropped, so a database
// keeps only the build its views serve and the one being indexed. A build another views schema still reads or has
// building (platform.index_builds), or whose advisory lock another supervisor holds (claimIndexSchema), stays.
import pg from "pg";
import { quoted } from "../../host/db/chain-views.ts";
import { INDEX_SCHEMA_PATTERN } from "./ponder.ts";

/** Whether a view outside `schema` selects from it (another platform's views schema on the same database). */
const READ_ELSEWHERE_SQL = `select 1
  from pg_depend d
  join pg_rewrite r on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
  join pg_class v on v.oid = r.ev_class
  join pg_class t on d.refclassid = 'pg_class'::regclass and t.oid = d.refobjid
  where t.relnamespace = $1::regnamespace and v.relnamespace <> t.relnamespace
  limit 1`;

/** Drops every index build schema but the ones in `keep`; returns the ones dropped. */
export async function dropStaleIndexBuilds(databaseUrl: string, keep: (string | null)[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>("select nspname as name from pg_namespace order by 1");
    const { rows: builds } = await client.query<{ building: string }>(
      "select building from platform.index_builds where building is not null",
    );
    const building = new Set(builds.map((row) => row.building));
    const dropped: string[] = [];
    for (const { name } of rows) {
      if (!INDEX_SCHEMA_PATTERN.test(name) || keep.includes(name) || building.has(name)) continue;
      if ((await client.query(READ_ELSEWHERE_SQL, [quoted(name)])).rowCount) continue;
      const lock = `ponder:${name}`;
      const { rows: locked } = await client.query("select pg_try_advisory_lock(hashtext($1)) as ok", [lock]);
      if (!locked[0].ok) continue;
      try {
        await client.query(`drop schema ${quoted(name)} cascade`);
        dropped.push(name);
      } finally {
        await client.query("select pg_advisory_unlock(hashtext($1))", [lock]);
      }
    }
    return dropped;
  } finally {
    await client.end();
  }
}
