import { describe, expect, it } from "vitest";
import type { Databases } from "./db/database.ts";
import { platformState } from "./platform-state.ts";

describe("platformState", () => {
  it("makes the state once per platform: every part of one shares it, another platform has its own", () => {
    let made = 0;
    const state = platformState(() => ({ made: ++made, cache: new Map<string, number>() }));
    const first = { db: {} as Databases };
    const second = { db: {} as Databases };
    // Two parts of the first platform: contexts of their own, one database handle.
    expect(state({ ...first })).toBe(state({ ...first }));
    state(first).cache.set("k", 1);
    expect(state(second).cache.has("k")).toBe(false);
    expect(made).toBe(2);
  });
});
