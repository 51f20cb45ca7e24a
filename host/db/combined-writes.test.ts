import type { CompiledQuery } from "kysely";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { combinedWrites } from "./combined-writes.ts";

/** A pool whose connections the test hands out: each statement's items are recorded, and one naming "bad" fails
 * (the database itself is exercised by test/bundler.test.ts). */
function testPool(size: number) {
  const statements: string[][] = [];
  const queries = { active: 0, most: 0 };
  let free = size;
  const waiting: (() => void)[] = [];
  const client = {
    async query({ values }: { values: unknown[] }) {
      const items = values[0] as string[];
      statements.push(items);
      queries.active += 1;
      queries.most = Math.max(queries.most, queries.active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      queries.active -= 1;
      if (items.includes("bad")) throw new Error("refused");
      return { rows: items.map((item) => ({ written: item })) };
    },
    release() {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
  const pool = {
    connect: () =>
      new Promise((resolve) => {
        if (free > 0) {
          free -= 1;
          resolve(client);
        } else waiting.push(() => resolve(client));
      }),
  } as unknown as pg.Pool;
  return { pool, statements, queries, hold: () => pool.connect() as Promise<{ release(): void }> };
}

const statement = (items: string[]) => ({ sql: "write", parameters: [items] }) as unknown as CompiledQuery;

describe("combinedWrites", () => {
  it("writes a caller alone at once, and those queued meanwhile together, in the write's order", async () => {
    const { pool, statements, hold } = testPool(1);
    const write = combinedWrites<string>(pool, { name: "test", statement, order: (a, b) => a.localeCompare(b) });
    expect(await write("first")).toEqual({ written: "first" });
    const held = await hold();
    const answers = Promise.all(["c", "a", "b"].map(write));
    await new Promise((resolve) => setTimeout(resolve, 20));
    held.release();
    expect(await answers).toEqual([{ written: "c" }, { written: "a" }, { written: "b" }]);
    expect(statements).toEqual([["first"], ["a", "b", "c"]]);
  });

  it("writes again one by one the items of a batch the database refused: only the failing one fails", async () => {
    const { pool, statements, hold } = testPool(2);
    const write = combinedWrites<string>(pool, { name: "test", statement, maxInFlight: 1 });
    const held = await hold();
    const busy = await hold();
    const answers = ["a", "bad", "b"].map((item) => write(item).catch((error: Error) => error.message));
    held.release();
    busy.release();
    expect(await Promise.all(answers)).toEqual([{ written: "a" }, "refused", { written: "b" }]);
    expect(statements[0]).toEqual(["a", "bad", "b"]);
    expect(statements.slice(1).sort()).toEqual([["a"], ["b"], ["bad"]]);
  });

  it("runs at most maxInFlight batches, each taking at most maxItems", async () => {
    const { pool, statements } = testPool(10);
    const write = combinedWrites<string>(pool, { name: "test", statement, maxInFlight: 2, maxItems: 3 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => write(String(i))));
    expect(statements.flat().sort()).toEqual(Array.from({ length: 10 }, (_, i) => String(i)).sort());
    expect(statements.every((items) => items.length <= 3)).toBe(true);
    expect(statements.length).toBeLessThan(10);
  });

  it("shares maxInFlight between the pool's combined writes of every kind", async () => {
    const { pool, statements, queries } = testPool(10);
    const inserts = combinedWrites<string>(pool, { name: "insert", statement, maxInFlight: 1, maxItems: 1 });
    const marks = combinedWrites<string>(pool, { name: "mark", statement, maxInFlight: 1, maxItems: 1 });
    await Promise.all(["a", "b", "c"].flatMap((item) => [inserts(item), marks(item)]));
    expect(statements).toHaveLength(6);
    expect(queries.most).toBe(1);
  });
});
