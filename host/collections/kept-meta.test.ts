// Kept pages and totals against a real PostgreSQL (the embedded server): an answer kept for one database is never
// given for another, though both run the same statement at the same table version (two platforms in one process,
// as the e2e suite runs them, or one after another on a copied data directory).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareDataDir, removeDataDir } from "../../scripts/infra/data-dir.ts";
import { type Database, otherDatabaseUrl, startPostgres } from "../../scripts/infra/postgres.ts";
import { freePort } from "../../test/support/stack.ts";
import { createTableVersions, versionTable } from "../db/table-versions.ts";
import { runCollection } from "./apply.ts";
import { parseCollectionQuery } from "./parse.ts";
import { defineCollection } from "./spec.ts";

interface Items {
  items: { id: number; org: string; name: string };
}

const ITEMS = defineCollection({
  fields: { name: { column: "name", type: "text", sortable: true, facet: true } },
  defaultSort: "name",
  tiebreaker: "id",
  versionedBy: ["items"],
});

let dataDir: string;
let postgres: Database;
const pools: pg.Pool[] = [];

/** A database of the cluster with a versioned `items` table holding one row named `name`. */
async function databaseWith(database: string, name: string): Promise<Kysely<Items>> {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: otherDatabaseUrl(postgres.url, database), max: 2 });
  pool.on("error", () => {}); // the server stopping at the end may still find a client closing
  pools.push(pool);
  const db = new Kysely<Items>({ dialect: new PostgresDialect({ pool }) });
  await sql`create schema platform`.execute(db);
  await createTableVersions(db as Kysely<unknown>);
  await sql`create table public.items (id integer primary key, org text not null, name text not null)`.execute(db);
  await versionTable(db as Kysely<unknown>, "public", "items");
  await db.insertInto("items").values({ id: 1, org: "org-1", name }).execute();
  return db;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "kept-meta-"));
  prepareDataDir(dataDir);
  postgres = await startPostgres({ dataDir, port: await freePort() });
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await postgres?.stop();
  removeDataDir(dataDir); // with its relocated cluster, when started as root
});

describe("kept collection answers", () => {
  it("answers each database from its own rows, at the same statement and table version", async () => {
    const first = await databaseWith("platform_a", "from A");
    const second = await databaseWith("platform_b", "from B");
    const query = parseCollectionQuery(new URLSearchParams(), ITEMS);
    const list = (db: Kysely<Items>) =>
      runCollection(db.selectFrom("items").select(["id", "name"]).where("org", "=", "org-1"), query, ITEMS);

    const fromA = await list(first);
    expect(fromA.rows.map((row) => row.name)).toEqual(["from A"]);
    expect(await list(first)).toBe(fromA); // kept: answered from memory while A's table is unchanged
    const fromB = await list(second);
    expect(fromB.rows.map((row) => row.name)).toEqual(["from B"]);
    expect(fromB.facets).toEqual({ name: [{ value: "from B", count: 1 }] });
  });
});
