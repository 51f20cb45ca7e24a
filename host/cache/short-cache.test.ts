import { describe, expect, it } from "vitest";
import type { PlatformChanges } from "../db/platform-changes.ts";
import { createShortCache } from "./short-cache.ts";

function changesAt(start: number | null) {
  let generation = start;
  const changes: PlatformChanges = { generation: () => generation, stop: async () => {} };
  return { changes, bump: () => (generation = (generation ?? 0) + 1) };
}

/** A load that counts its calls and answers them all when opened. */
function gatedLoad(value: string) {
  const waiting: (() => void)[] = [];
  const load = {
    calls: 0,
    open: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
    fn: () => {
      load.calls += 1;
      return new Promise<string | undefined>((resolve) => waiting.push(() => resolve(value)));
    },
  };
  return load;
}

describe("createShortCache", () => {
  it("serves concurrent misses of one key with one load", async () => {
    const { changes } = changesAt(1);
    const cache = createShortCache<string>(changes, { ttlMs: 5000, max: 10 });
    const load = gatedLoad("row");
    const answers = Promise.all(Array.from({ length: 5 }, () => cache.get("k", load.fn)));
    load.open();
    expect(await answers).toEqual(["row", "row", "row", "row", "row"]);
    expect(load.calls).toBe(1);
    expect(await cache.get("k", load.fn)).toBe("row"); // cached now
    expect(load.calls).toBe(1);
  });

  it("does not share a load begun before a change was notified", async () => {
    const { changes, bump } = changesAt(1);
    const cache = createShortCache<string>(changes, { ttlMs: 5000, max: 10 });
    const before = gatedLoad("old");
    const first = cache.get("k", before.fn);
    bump();
    const after = gatedLoad("new");
    const second = cache.get("k", after.fn);
    before.open();
    after.open();
    expect(await first).toBe("old");
    expect(await second).toBe("new");
    expect([before.calls, after.calls]).toEqual([1, 1]);
  });

  it("shares nothing while changes are not listened to", async () => {
    const { changes } = changesAt(null);
    const cache = createShortCache<string>(changes, { ttlMs: 5000, max: 10 });
    const load = gatedLoad("row");
    const answers = Promise.all([cache.get("k", load.fn), cache.get("k", load.fn)]);
    load.open();
    await answers;
    expect(load.calls).toBe(2);
  });
});
