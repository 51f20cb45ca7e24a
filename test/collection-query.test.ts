// The collection-query engine against a real PostgreSQL: every operator, sort with tiebreak, paging, search, facets.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CamelCasePlugin, Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CollectionDefinition,
  defineCollection,
  parseCollectionQuery,
  runCollection,
} from "../host/collections/index.ts";
import { createTableVersions, versionTable } from "../host/db/table-versions.ts";
import { removeDataDir } from "../scripts/infra/data-dir.ts";
import { type Database, startPostgres } from "../scripts/infra/postgres.ts";
import { freePort } from "./support/stack.ts";

const STATUSES = ["OPEN", "CLOSED", "ARCHIVED"] as const;
const NAMES = ["alpha", "Bravo", "CHARLIE", "delta"];
const INJECTION = "'; drop table x; --";
const DAY = 86_400_000;
const EPOCH = Date.parse("2024-01-01T00:00:00Z");

interface Item {
  id: string;
  name: string | null;
  quantity: number | null;
  amount: string | null;
  active: boolean | null;
  createdAt: Date;
  status: (typeof STATUSES)[number];
  label: string | null;
}

/** 30 rows with NULLs, empty strings, numerics past 2^53 and shared timestamps (i and i + 15), then one injection. */
const ITEMS: Item[] = [
  ...Array.from({ length: 30 }, (_, index): Item => {
    const i = index + 1;
    return {
      id: `item-${String(i).padStart(2, "0")}`,
      name: i % 10 === 0 ? null : i % 10 === 5 ? "" : `${NAMES[i % 4]}-${i}`,
      quantity: i % 7 === 0 ? null : (i - 10) * 3,
      amount: i % 6 === 0 ? null : (10n ** 30n * BigInt(i) + 1n).toString(),
      active: i % 5 === 0 ? null : i % 2 === 0,
      createdAt: new Date(EPOCH + (i % 15) * DAY),
      status: STATUSES[i % 3],
      label: i % 8 === 0 ? "Zulu special" : `label ${i}`,
    };
  }),
  {
    id: "item-31",
    name: INJECTION,
    quantity: 99,
    amount: "5",
    active: true,
    createdAt: new Date(EPOCH + 20 * DAY),
    status: "OPEN",
    label: null,
  },
];

const ITEM_FIELDS = {
  fields: {
    name: { column: "name", type: "text", sortable: true },
    quantity: { column: "quantity", type: "number", sortable: true },
    amount: { column: "amount", type: "bigint", sortable: true, facet: true },
    active: { column: "active", type: "boolean", facet: true },
    createdAt: { column: "createdAt", type: "timestamp", sortable: true },
    status: { column: "status", type: "enum", values: STATUSES, sortable: true, facet: true },
    label: { column: "label", type: "text" },
  },
  search: ["name", "label"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
} as const satisfies CollectionDefinition<string>;
const items = defineCollection(ITEM_FIELDS);

const day = (n: number) => new Date(EPOCH + n * DAY).toISOString();
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const matching = (predicate: (item: Item) => boolean) => ids(ITEMS.filter(predicate)).sort();
const contains = (value: string | null, part: string) => value?.toLowerCase().includes(part) ?? false;

describe("collection queries on PostgreSQL", () => {
  let dataDir: string;
  let server: Database;
  let db: Kysely<{ items: Item }>;
  const executed: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "collection-query-"));
    server = await startPostgres({ dataDir, port: await freePort() });
    const pool = new pg.Pool({ connectionString: server.url, max: 4 });
    // The server's shutdown in afterAll can reach a client that is still closing: not a test failure.
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
    db = new Kysely<{ items: Item }>({
      dialect: new PostgresDialect({ pool }),
      plugins: [new CamelCasePlugin()],
      log: (event) => {
        executed.push(event.query.sql);
      },
    });
    await sql`create type item_status as enum ('OPEN', 'CLOSED', 'ARCHIVED')`.execute(db);
    await sql`create table items (
      id text primary key, name text, quantity integer, amount numeric(78, 0), active boolean,
      created_at timestamptz not null, status item_status not null, label text)`.execute(db);
    await sql`create table x (id integer)`.execute(db);
    await db.insertInto("items").values(ITEMS).execute();
  });

  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
    if (dataDir) removeDataDir(dataDir);
  });

  async function list(query: string) {
    const parsed = parseCollectionQuery(new URLSearchParams(query), items);
    return runCollection(db.selectFrom("items").selectAll(), parsed, items);
  }

  /** All matching ids (sorted) and the total, with a page large enough to hold them. */
  async function matches(query: string) {
    const { rows, total } = await list(`${query}&page[limit]=200`);
    expect(total, query).toBe(rows.length);
    return ids(rows).sort();
  }

  it("serves every row, newest first by default, with the total", async () => {
    const { rows, total } = await list("");
    expect(total).toBe(31);
    expect(rows).toHaveLength(31);
    expect(rows[0]).toMatchObject({ id: "item-31", name: INJECTION, status: "OPEN" });
    // numeric arrives as the pg type parser in use makes it (bigint once the platform's database module is loaded).
    expect(String(rows[0].amount)).toBe("5");
  });

  const cases: [string, (item: Item) => boolean][] = [
    ["filter[name]=Bravo-1", (i) => i.name === "Bravo-1"],
    ["filter[name][eq]=bravo-1", () => false],
    ["filter[name][ne]=Bravo-1", (i) => i.name !== "Bravo-1"],
    ["filter[quantity]=0", (i) => i.quantity === 0],
    ["filter[quantity][ne]=0", (i) => i.quantity !== 0],
    ["filter[quantity][gt]=30", (i) => i.quantity !== null && i.quantity > 30],
    ["filter[quantity][gte]=30", (i) => i.quantity !== null && i.quantity >= 30],
    ["filter[quantity][lt]=-9", (i) => i.quantity !== null && i.quantity < -9],
    ["filter[quantity][lte]=-9", (i) => i.quantity !== null && i.quantity <= -9],
    ["filter[quantity][gt]=99999999999", () => false],
    ["filter[quantity][between]=-3,3", (i) => i.quantity !== null && i.quantity >= -3 && i.quantity <= 3],
    ["filter[quantity][inArray]=0,3,-27", (i) => [0, 3, -27].includes(i.quantity ?? Number.NaN)],
    ["filter[quantity][notInArray]=0,3", (i) => ![0, 3].includes(i.quantity ?? Number.NaN)],
    ["filter[quantity][isEmpty]", (i) => i.quantity === null],
    ["filter[quantity][isNotEmpty]", (i) => i.quantity !== null],
    [`filter[amount]=${10n ** 30n * 7n + 1n}`, (i) => i.id === "item-07"],
    [`filter[amount][gt]=${10n ** 31n}`, (i) => i.amount !== null && BigInt(i.amount) > 10n ** 31n],
    [
      `filter[amount][between]=${10n ** 30n * 2n + 1n},${10n ** 30n * 4n + 1n}`,
      (i) => ["item-02", "item-03", "item-04"].includes(i.id),
    ],
    ["filter[amount][lte]=5", (i) => i.amount === "5"],
    ["filter[amount][isEmpty]", (i) => i.amount === null],
    ["filter[active]=true", (i) => i.active === true],
    ["filter[active][eq]=false", (i) => i.active === false],
    ["filter[active][ne]=true", (i) => i.active !== true],
    ["filter[active][isEmpty]", (i) => i.active === null],
    ["filter[active][isNotEmpty]", (i) => i.active !== null],
    [`filter[createdAt]=${day(3)}`, (i) => i.createdAt.getTime() === EPOCH + 3 * DAY],
    [`filter[createdAt][gt]=${day(12)}`, (i) => i.createdAt.getTime() > EPOCH + 12 * DAY],
    [`filter[createdAt][gte]=${day(12)}`, (i) => i.createdAt.getTime() >= EPOCH + 12 * DAY],
    [`filter[createdAt][lt]=2024-01-03`, (i) => i.createdAt.getTime() < EPOCH + 2 * DAY],
    [`filter[createdAt][lte]=2024-01-03`, (i) => i.createdAt.getTime() <= EPOCH + 2 * DAY],
    [
      `filter[createdAt][between]=${day(2)},${day(4)}`,
      (i) => i.createdAt.getTime() >= EPOCH + 2 * DAY && i.createdAt.getTime() <= EPOCH + 4 * DAY,
    ],
    [
      "filter[createdAt][inArray]=2024-01-02T00:00:00Z,2024-01-03T01:00:00%2B01:00",
      (i) => [1, 2].some((n) => i.createdAt.getTime() === EPOCH + n * DAY),
    ],
    ["filter[status]=CLOSED", (i) => i.status === "CLOSED"],
    ["filter[status][ne]=CLOSED", (i) => i.status !== "CLOSED"],
    ["filter[status][inArray]=OPEN,ARCHIVED", (i) => i.status !== "CLOSED"],
    ["filter[status][notInArray]=OPEN,ARCHIVED", (i) => i.status === "CLOSED"],
    ["filter[name][iLike]=ALPHA", (i) => contains(i.name, "alpha")],
    ["filter[name][iLike]=b%25", (i) => i.name?.toLowerCase().startsWith("b") ?? false],
    ["filter[name][iLike]=%25-1_", (i) => /-1\d$/.test(i.name ?? "")],
    ["filter[name][notILike]=alpha", (i) => !contains(i.name, "alpha")],
    ["filter[name][inArray]=alpha-4,Bravo-1,nobody", (i) => ["alpha-4", "Bravo-1"].includes(i.name ?? "")],
    ["filter[name][notInArray]=alpha-4,Bravo-1", (i) => !["alpha-4", "Bravo-1"].includes(i.name ?? "")],
    ["filter[name][isEmpty]", (i) => i.name === null || i.name === ""],
    ["filter[name][isNotEmpty]", (i) => i.name !== null && i.name !== ""],
    [
      "filter[status]=OPEN&filter[quantity][gte]=0&filter[active]=true",
      (i) => i.status === "OPEN" && i.quantity !== null && i.quantity >= 0 && i.active === true,
    ],
    ["filter[q]=zulu", (i) => contains(i.label, "zulu")],
    ["filter[q]=CHARLIE-", (i) => contains(i.name, "charlie-")],
    ["filter[q]=1", (i) => contains(i.name, "1") || contains(i.label, "1")],
    ["filter[q]=zulu&filter[status]=OPEN", (i) => contains(i.label, "zulu") && i.status === "OPEN"],
  ];

  it.each(cases)("%s", async (query, predicate) => {
    const expected = matching(predicate);
    expect(await matches(query)).toEqual(expected);
  });

  it("has cases that each select something and leave something out", () => {
    const selective = cases.filter(([, predicate]) => {
      const n = matching(predicate).length;
      return n > 0 && n < ITEMS.length;
    });
    expect(selective.length).toBeGreaterThan(cases.length - 4);
  });

  it("sorts ascending and descending, then by the tiebreaker in the same direction", async () => {
    const byCreated = [...ITEMS].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    );
    expect(ids((await list("sort=createdAt&page[limit]=200")).rows)).toEqual(ids(byCreated));
    expect(ids((await list("sort=-createdAt&page[limit]=200")).rows)).toEqual(ids(byCreated).reverse());
    // Shared timestamps: item-01 and item-16 (1 day), tie broken by id.
    const ascending = ids((await list("sort=createdAt&page[limit]=200")).rows);
    expect(ascending.indexOf("item-16")).toBe(ascending.indexOf("item-01") + 1);

    // PostgreSQL: NULLs last ascending, first descending.
    const byQuantity = [...ITEMS].sort(
      (a, b) =>
        (a.quantity ?? Number.POSITIVE_INFINITY) - (b.quantity ?? Number.POSITIVE_INFINITY) || a.id.localeCompare(b.id),
    );
    expect(ids((await list("sort=quantity&page[limit]=200")).rows)).toEqual(ids(byQuantity));
    expect(ids((await list("sort=-quantity&page[limit]=200")).rows)).toEqual(ids(byQuantity).reverse());

    const amounts = (await list("sort=-amount&filter[amount][isNotEmpty]")).rows.map((r) => BigInt(r.amount!));
    expect(amounts).toEqual([...amounts].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(amounts[0]).toBe(10n ** 30n * 29n + 1n);

    // An enum sorts in its declared order.
    const statuses = (await list("sort=status&page[limit]=200")).rows.map((r) => r.status);
    expect(statuses).toEqual([...statuses].sort((a, b) => STATUSES.indexOf(a) - STATUSES.indexOf(b)));
  });

  it("pages through the sorted set without gaps or repeats; total counts the filtered set", async () => {
    const all = ids((await list("sort=createdAt&page[limit]=200")).rows);
    const seen: string[] = [];
    for (let offset = 0; offset < 31; offset += 7) {
      const page = await list(`sort=createdAt&page[offset]=${offset}&page[limit]=7`);
      expect(page.total).toBe(31);
      seen.push(...ids(page.rows));
    }
    expect(seen).toEqual(all);
    const beyond = await list("page[offset]=40&page[limit]=5");
    expect(beyond).toMatchObject({ rows: [], total: 31 });
    const filtered = await list("filter[status]=CLOSED&page[limit]=3");
    expect(filtered.rows).toHaveLength(3);
    expect(filtered.total).toBe(matching((i) => i.status === "CLOSED").length);
  });

  it("counts facets over the filtered set, most frequent first", async () => {
    const { facets, total } = await list("filter[quantity][gte]=0");
    const filteredItems = ITEMS.filter((i) => i.quantity !== null && i.quantity >= 0);
    expect(total).toBe(filteredItems.length);
    // Ties in count fall back to the column's order: an enum's declared order; false, true, then NULL.
    const count = <T>(values: T[], order: T[]) =>
      order
        .map((value) => ({ value, count: values.filter((v) => v === value).length }))
        .filter((bucket) => bucket.count > 0)
        .sort((a, b) => b.count - a.count || order.indexOf(a.value) - order.indexOf(b.value));
    expect(facets?.status).toEqual(
      count(
        filteredItems.map((i) => i.status),
        [...STATUSES],
      ),
    );
    expect(facets?.active).toEqual(
      count(
        filteredItems.map((i) => i.active),
        [false, true, null],
      ),
    );
    expect(facets?.status.reduce((n, b) => n + b.count, 0)).toBe(total);
    expect(Object.keys(facets ?? {})).toEqual(["amount", "active", "status"]);
    // numeric values leave as decimal strings (JSON has no bigint), NULL as null.
    expect(facets?.amount).toContainEqual({ value: (10n ** 30n * 29n + 1n).toString(), count: 1 });
    expect(facets?.amount.every((b) => typeof b.value === "string" || b.value === null)).toBe(true);
  });

  it("answers page, total and facets in one statement, also for a page past the end or an empty set", async () => {
    const filter = "filter[quantity][gte]=0";
    const all = await list(`${filter}&page[limit]=200`);
    executed.length = 0;
    const first = await list(`${filter}&page[limit]=3`);
    const beyond = await list(`${filter}&page[offset]=40&page[limit]=5`);
    const none = await list("filter[name]=nobody");
    expect(executed).toHaveLength(3);
    expect(first).toEqual({ rows: all.rows.slice(0, 3), total: all.total, facets: all.facets });
    expect(beyond).toEqual({ rows: [], total: all.total, facets: all.facets });
    expect(all.total).toBeGreaterThan(5);
    expect(none).toEqual({ rows: [], total: 0, facets: { amount: [], active: [], status: [] } });
  });

  it("keeps the select's rows and types, timestamp and integer facets as a query of their own gives them, totalFromFacet", async () => {
    const dated = defineCollection({
      fields: {
        createdAt: { column: "createdAt", type: "timestamp", sortable: true, facet: true },
        quantity: { column: "quantity", type: "number", facet: true },
        status: { column: "status", type: "enum", values: STATUSES, facet: true },
      },
      defaultSort: "-createdAt",
      tiebreaker: "id",
      totalFromFacet: "status",
    });
    executed.length = 0;
    const result = await runCollection(
      db.selectFrom("items").selectAll(),
      parseCollectionQuery(new URLSearchParams("page[limit]=200"), dated),
      dated,
    );
    expect(executed).toHaveLength(1);
    const plain = await db.selectFrom("items").selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").execute();
    expect(result.rows).toEqual(plain);
    expect(result.rows[0].createdAt).toBeInstanceOf(Date);
    expect(result.total).toBe(ITEMS.length);
    const buckets = <T>(values: T[], key: (value: T) => number) =>
      [...new Set(values)]
        .map((value) => ({ value, count: values.filter((v) => v === value).length }))
        .sort((a, b) => b.count - a.count || key(a.value) - key(b.value));
    const times = buckets(
      ITEMS.map((i) => i.createdAt.getTime()),
      (t) => t,
    ).map((b) => ({ value: new Date(b.value).toISOString(), count: b.count }));
    expect(result.facets?.createdAt).toEqual(times);
    expect(result.facets?.quantity).toEqual(
      buckets(
        ITEMS.map((i) => i.quantity),
        (q) => q ?? Number.POSITIVE_INFINITY,
      ),
    );
  });

  it("treats SQL in values as data and never writes a value into the SQL text", async () => {
    executed.length = 0;
    expect(await matches(`filter[name]=${encodeURIComponent(INJECTION)}`)).toEqual(["item-31"]);
    expect(await matches(`filter[name][iLike]=${encodeURIComponent("drop table x")}`)).toEqual(["item-31"]);
    expect(await matches(`filter[q]=${encodeURIComponent("'; drop")}`)).toEqual(["item-31"]);
    expect(await matches(`filter[name][inArray]=${encodeURIComponent(`${INJECTION},alpha-4`)}`)).toEqual([
      "item-04",
      "item-31",
    ]);
    expect(executed.filter((text) => /drop|alpha-4|'/i.test(text))).toEqual([]);
    const tables = await sql<{
      name: string;
    }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(db);
    expect(tables.rows.map((r) => r.name).sort()).toEqual(["items", "x"]);
    expect((await list("")).total).toBe(31);
  });

  it("orders by a declared leading column before the requested sort, and lets a field supply its own condition", async () => {
    const grouped = defineCollection({
      fields: {
        name: { column: "name", type: "text", sortable: true },
        active: { column: "active", type: "boolean", sortable: true },
        // "label" filters match the label or, like a global entry, rows without one; "none" selects those only.
        label: {
          column: "label",
          type: "text",
          filter: { operators: ["eq", "inArray"] },
          condition: (filter) => {
            const wanted = "value" in filter ? [filter.value] : "values" in filter ? filter.values : [];
            if (wanted.includes("none")) return sql<boolean>`label is null`;
            return sql<boolean>`(label in (${sql.join(wanted)}) or label is null)`;
          },
        },
      },
      defaultSort: "name",
      tiebreaker: "id",
      leadingOrder: { column: "active", direction: "asc" },
    });
    const run = (query: string) =>
      runCollection(
        db.selectFrom("items").selectAll(),
        parseCollectionQuery(new URLSearchParams(`${query}&page[limit]=200`), grouped),
        grouped,
      );
    const rank = (i: Item) => (i.active === false ? 0 : i.active === true ? 1 : 2); // NULLs last ascending
    for (const [query, descending] of [
      ["", false],
      ["sort=-name", true],
    ] as const) {
      const expected = [...ITEMS].sort((a, b) => {
        const byName = (a.name ?? "\uffff") < (b.name ?? "\uffff") ? -1 : a.name === b.name ? 0 : 1;
        return rank(a) - rank(b) || (descending ? -byName : byName) || (descending ? -1 : 1) * a.id.localeCompare(b.id);
      });
      expect(ids((await run(query)).rows), query).toEqual(ids(expected));
    }
    // Sorting by the leading column itself follows the requested direction.
    const byActive = (await run("sort=-active")).rows;
    expect(byActive.map(rank)).toEqual(ITEMS.map(rank).sort((a, b) => b - a));
    expect(ids((await run("filter[label]=label 3")).rows).sort()).toEqual(
      matching((i) => i.label === "label 3" || i.label === null),
    );
    expect(ids((await run("filter[label][inArray]=label 3,none")).rows).sort()).toEqual(
      matching((i) => i.label === null),
    );
  });
  it("a versioned collection keeps its page, total and facets per its table's version: a version probe alone while unchanged, exact after any committed write", async () => {
    await sql`create schema if not exists platform`.execute(db);
    await createTableVersions(db as unknown as Kysely<unknown>);
    await versionTable(db as unknown as Kysely<unknown>, "public", "items");
    const versioned = defineCollection({ ...ITEM_FIELDS, versionedBy: ["items"] });
    const run = (query: string) =>
      runCollection(
        db.selectFrom("items").selectAll(),
        parseCollectionQuery(new URLSearchParams(query), versioned),
        versioned,
      );
    const query = "filter[status]=OPEN&page[limit]=4";
    expect(await run(query)).toEqual(await list(query));
    executed.length = 0;
    const kept = await run(query);
    expect(executed).toHaveLength(1); // the version probe alone: the page and its meta are kept
    expect(executed[0]).toMatch(/table_changes/);
    expect(executed[0]).not.toMatch(/"items"/);
    expect(kept).toEqual(await list(query));
    expect(Object.isFrozen(kept.rows[0])).toBe(true); // shared by every request it answers

    // An uncommitted write changes nothing a reader sees; once committed, the next answer counts it.
    const extra: Item = { ...ITEMS[0]!, id: "item-99", status: "OPEN", createdAt: new Date(EPOCH) };
    const before = kept.total;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const writing = db.transaction().execute(async (trx) => {
      await trx.insertInto("items").values(extra).execute();
      await held;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect((await run(query)).total).toBe(before);
    release();
    await writing;
    executed.length = 0;
    const after = await run(query);
    expect(after.total).toBe(before + 1);
    expect(executed).toHaveLength(3); // the probe, the page query, then the meta at the new version
    expect(after).toEqual(await list(query));
    // A rolled-back write leaves the version, and so the kept answer, as they were.
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom("items").where("id", "=", "item-99").execute();
        throw new Error("roll back");
      })
      .catch(() => {});
    executed.length = 0;
    expect((await run(query)).total).toBe(before + 1);
    expect(executed).toHaveLength(1); // a page that just changed is read, not probed, for a while (meta kept)
    expect(executed[0]).toMatch(/"items"/);
    await db.deleteFrom("items").where("id", "=", "item-99").execute();
    expect((await run(query)).total).toBe(before);
    // Many writes: the version's rows are folded as they go, the sum still moves with every write.
    const version = async () =>
      (
        await sql<{ v: string; rows: number }>`select sum(changes)::text as v, count(*)::int as rows
        from platform.table_changes where table_name = 'items'`.execute(db)
      ).rows[0]!;
    const start = await version();
    for (let i = 0; i < 150; i++) await sql`update items set label = label where id = 'item-01'`.execute(db);
    const end = await version();
    expect(BigInt(end.v) - BigInt(start.v)).toBe(150n);
    expect(end.rows).toBeLessThan(70);
  });
});
