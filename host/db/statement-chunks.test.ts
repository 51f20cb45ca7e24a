import { describe, expect, it } from "vitest";
import { readInChunks, statementChunks } from "./statement-chunks.ts";

describe("statementChunks", () => {
  it("splits into consecutive chunks of at most the size, in order; none for no items", () => {
    expect(statementChunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(statementChunks([1, 2], 2)).toEqual([[1, 2]]);
    expect(statementChunks([], 2)).toEqual([]);
    expect(statementChunks(Array.from({ length: 2500 }, (_, i) => i)).map((c) => c.length)).toEqual([1000, 1000, 500]);
  });
});

describe("readInChunks", () => {
  it("reads each chunk and gives every row in order; no read for no items", async () => {
    const reads: number[][] = [];
    const read = async (chunk: number[]) => {
      reads.push(chunk);
      return chunk.map((n) => n * 10);
    };
    const rows = await readInChunks(
      Array.from({ length: 1500 }, (_, i) => i),
      read,
    );
    expect(rows).toEqual(Array.from({ length: 1500 }, (_, i) => i * 10));
    expect(reads.map((chunk) => chunk.length)).toEqual([1000, 500]);
    expect(await readInChunks([], read)).toEqual([]);
    expect(reads).toHaveLength(2);
  });
});
