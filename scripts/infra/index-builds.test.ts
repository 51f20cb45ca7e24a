// The switch between index builds against a real PostgreSQL (the embedded server): publishing points the views
// schema and the chain views at another build in one transaction (readers never see neither), and the builds left
// behind are dropped unless another views schema reads them or a supervisor holds their lock.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildingIndexSchema,
  publishIndexBuild,
  recordIndexBuild,
  servedIndexSchema,
} from "../../host/db/index-builds.ts";
import { migrate } from "../../host/db/migrations.ts";
import { freePort } from "../../test/support/stack.ts";
import { prepareDataDir, removeDataDir } from "./data-dir.ts";
import { dropStaleIndexBuilds } from "./index-builds.ts";
import { type Database, startPostgres } from "./postgres.ts";

const CHAIN = 31337;
const A = "idx_aaaaaaaaaaaaaaaa";
const B = "idx_bbbbbbbbbbbbbbbb";
const C = "idx_cccccccccccccccc";

let dataDir: string;
let postgres: Database;
let pool: pg.Pool;

/** A build's schema as Ponder lays it out: its tables, their reorg tables, its meta and checkpoint tables. */
async function makeBuild(schema: string, tokenName: string) {
  await pool.query(`create schema ${schema}`);
  await pool.query(`create table ${schema}.token (id text primary key, chain_id integer, name text)`);
  await pool.query(`create table ${schema}._reorg__token (id text, chain_id integer, name text)`);
  await pool.query(`create table ${schema}._ponder_meta (key text primary key, value jsonb)`);
  await pool.query(`create table ${schema}._ponder_checkpoint (chain_id integer, latest_checkpoint text)`);
  await pool.query(`insert into ${schema}.token values ('0x1', ${CHAIN}, $1), ('0x2', 1, 'other chain')`, [tokenName]);
}

const chainToken = async () =>
  (await pool.query<{ name: string }>(`select name from ledger_chain_${CHAIN}.token`)).rows.map((row) => row.name);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "index-builds-"));
  prepareDataDir(dataDir);
  postgres = await startPostgres({ dataDir, port: await freePort() });
  pool = new pg.Pool({ connectionString: postgres.url, max: 6 });
  // The server stopping at the end may still find a client closing: its FATAL 57P01 is not the test's failure.
  pool.on("error", () => {});
  await migrate(new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }));
  await makeBuild(A, "from A");
  await makeBuild(B, "from B");
  await makeBuild(C, "from C");
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
  removeDataDir(dataDir); // with its relocated cluster, when started as root
});

describe("index builds", () => {
  it("publishes a first build: the views over its tables (not the reorg ones) and each chain's views", async () => {
    expect(await recordIndexBuild(pool, "ledger", A)).toBeNull();
    expect(await buildingIndexSchema(pool, "ledger")).toBeNull(); // a first build serves nothing before it
    await publishIndexBuild(pool, "ledger", A, [CHAIN]);
    expect(await servedIndexSchema(pool, "ledger")).toBe(A);
    expect(await chainToken()).toEqual(["from A"]);
    const { rows } = await pool.query("select viewname from pg_views where schemaname = 'ledger' order by 1");
    expect(rows.map((row) => row.viewname)).toEqual(["_ponder_checkpoint", "_ponder_meta", "token"]);
  });

  it("keeps serving the previous build while another is recorded, and switches in one transaction", async () => {
    expect(await recordIndexBuild(pool, "ledger", B)).toBe(A);
    expect(await buildingIndexSchema(pool, "ledger")).toBe(B);
    expect(await chainToken()).toEqual(["from A"]);
    // Readers on other connections throughout a series of switches: each sees one build or the other, never neither.
    let reading = true;
    const seen = new Set<string>();
    const failures: string[] = [];
    const readers = Array.from({ length: 4 }, async () => {
      while (reading) {
        await chainToken().then(
          (names) => (names.length === 1 ? seen.add(names[0]!) : failures.push(`rows: ${names}`)),
          (error) => failures.push(String(error)),
        );
      }
    });
    for (const schema of [B, A, B, A, B]) await publishIndexBuild(pool, "ledger", schema, [CHAIN]);
    reading = false;
    await Promise.all(readers);
    expect(failures).toEqual([]);
    expect([...seen].sort()).toEqual(["from A", "from B"]);
    expect(await servedIndexSchema(pool, "ledger")).toBe(B);
    expect(await buildingIndexSchema(pool, "ledger")).toBeNull();
    expect(await chainToken()).toEqual(["from B"]);
  });

  it("drops the builds left behind, but not one another views schema reads or a supervisor holds", async () => {
    await pool.query(`create schema other_views`);
    await pool.query(`create view other_views.token as select * from ${A}.token`);
    const supervisor = new pg.Client({ connectionString: postgres.url });
    await supervisor.connect();
    await supervisor.query("select pg_advisory_lock(hashtext($1))", [`ponder:${C}`]);
    try {
      expect(await dropStaleIndexBuilds(postgres.url, [B])).toEqual([]);
      await pool.query("drop schema other_views cascade");
      expect(await dropStaleIndexBuilds(postgres.url, [B])).toEqual([A]);
    } finally {
      await supervisor.end();
    }
    expect(await dropStaleIndexBuilds(postgres.url, [B])).toEqual([C]);
    expect(await servedIndexSchema(pool, "ledger")).toBe(B);
  });
});
