import { expect, it } from "vitest";
import { batchedWrites } from "./batched-writes.ts";

it("sends a lone row at once, and the rows asked for while a write runs together in the next", async () => {
  const writes: number[][] = [];
  let release: () => void = () => {};
  const write = batchedWrites<number>(async (rows) => {
    writes.push(rows);
    if (rows[0] === 1) await new Promise<void>((r) => (release = r));
  });
  const first = write(1);
  expect(writes).toEqual([[1]]); // at once, not on a timer
  const later = [write(2), write(3), write(4)];
  release();
  await Promise.all([first, ...later]);
  expect(writes).toEqual([[1], [2, 3, 4]]);
  await write(5);
  expect(writes).toEqual([[1], [2, 3, 4], [5]]);
});

it("fails each row of a failed write, and goes on with the next", async () => {
  const write = batchedWrites<string>(async (rows) => {
    if (rows.includes("bad")) throw new Error("refused");
  });
  const results = await Promise.allSettled([write("bad"), write("good")]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled"]);
});
