import { describe, expect, it } from "vitest";
import { statementChunks } from "./statement-chunks.ts";

describe("statementChunks", () => {
  it("splits into consecutive chunks of at most the size, in order; none for no items", () => {
    expect(statementChunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(statementChunks([1, 2], 2)).toEqual([[1, 2]]);
    expect(statementChunks([], 2)).toEqual([]);
    expect(statementChunks(Array.from({ length: 2500 }, (_, i) => i)).map((c) => c.length)).toEqual([1000, 1000, 500]);
  });
});
