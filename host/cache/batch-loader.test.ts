import { describe, expect, it } from "vitest";
import { batchLoader } from "./batch-loader.ts";

describe("batchLoader", () => {
  it("answers the lookups of one turn with one load of their distinct keys", async () => {
    const loads: number[][] = [];
    const load = batchLoader(async (keys: number[]) => {
      loads.push(keys);
      return new Map(keys.filter((k) => k !== 3).map((k) => [k, k * 10]));
    });
    expect(await Promise.all([load(1), load(2), load(1), load(3)])).toEqual([10, 20, 10, undefined]);
    expect(await load(4)).toBe(40);
    expect(loads).toEqual([[1, 2, 3], [4]]);
  });

  it("fails every lookup of a batch whose load failed, and loads the next batch anew", async () => {
    let fail = true;
    const load = batchLoader(async (keys: string[]) => {
      if (fail) throw new Error("down");
      return new Map(keys.map((k) => [k, k.length]));
    });
    await expect(Promise.all([load("a"), load("bb")])).rejects.toThrow("down");
    fail = false;
    expect(await load("ccc")).toBe(3);
  });
});
