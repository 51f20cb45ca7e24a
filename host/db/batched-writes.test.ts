import { expect, it } from "vitest";
import { batchedWrites } from "./batched-writes.ts";

it("sends a lone row at once, and the rows asked for while a write runs together in the next", async () => {
  const writes: number[][] = [];
  let release: () => void = () => {};
  const write = batchedWrites<number, number>(async (rows) => {
    writes.push(rows);
    if (rows[0] === 1) await new Promise<void>((r) => (release = r));
    return rows.map((row) => row * 10);
  });
  const first = write(1);
  expect(writes).toEqual([[1]]); // at once, not on a timer
  const later = [write(2), write(3), write(4)];
  release();
  expect(await Promise.all([first, ...later])).toEqual([10, 20, 30, 40]); // each row its own result
  expect(writes).toEqual([[1], [2, 3, 4]]);
  await write(5);
  expect(writes).toEqual([[1], [2, 3, 4], [5]]);
});

it("puts rows of one key in separate writes, in the order asked", async () => {
  const writes: string[][] = [];
  let release: () => void = () => {};
  const write = batchedWrites<string>(
    async (rows) => {
      writes.push(rows);
      if (rows[0] === "first") await new Promise<void>((r) => (release = r));
      return rows.map(() => undefined);
    },
    { keyOf: (row) => row[0]! },
  );
  const all = [write("first"), write("a1"), write("b1"), write("a2"), write("a3"), write("b2")];
  release();
  await Promise.all(all);
  expect(writes).toEqual([["first"], ["a1", "b1"], ["a2", "b2"], ["a3"]]);
});

it("fails each row of a failed write, and goes on with the next", async () => {
  const write = batchedWrites<string>(async (rows) => {
    if (rows.includes("bad")) throw new Error("refused");
    return rows.map(() => undefined);
  });
  const results = await Promise.allSettled([write("bad"), write("good")]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled"]);
});
