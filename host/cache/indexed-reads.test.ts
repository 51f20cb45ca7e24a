import { describe, expect, it } from "vitest";
import { coalesced, compareVersions, createIndexedReads } from "./indexed-reads.ts";

const A = "1795401340000000000003133700000000000001130";
const B = "1795401345000000000003133700000000000001430";

/** Reads over a version the test moves by hand; counts computations. */
function harness(max = 10) {
  let checkpoints = A;
  let stamp = "1000";
  const reads = createIndexedReads(async () => ({ checkpoints, stamp }), max);
  let computed = 0;
  const compute = (value: string) => async () => {
    computed += 1;
    return value;
  };
  return {
    reads,
    compute,
    computed: () => computed,
    /** The index at `next`, its checkpoint rows written by a new transaction (`nextStamp`, else the next id). */
    moveTo(next: string, nextStamp = String(Number(stamp) + 1)) {
      checkpoints = next;
      stamp = nextStamp;
    },
  };
}

describe("compareVersions", () => {
  it("orders chain by chain; any chain going back is a step back", () => {
    expect(compareVersions(A, A)).toBe(0);
    expect(compareVersions(B, A)).toBe(1);
    expect(compareVersions(A, B)).toBe(-1);
    expect(compareVersions(`${B},${A}`, `${A},${A}`)).toBe(1);
    expect(compareVersions(`${B},${A}`, `${A},${B}`)).toBe(-1);
    expect(compareVersions(A, `${A},${A}`)).toBe(-1);
  });
});

describe("createIndexedReads", () => {
  it("keeps a result for its version and computes afresh once the index moves", async () => {
    const h = harness();
    const v1 = await h.reads.version();
    expect(await h.reads.get(v1, "k", h.compute("first"))).toBe("first");
    expect(await h.reads.get(await h.reads.version(), "k", h.compute("again"))).toBe("first");
    expect(h.computed()).toBe(1);

    h.moveTo(B);
    const v2 = await h.reads.version();
    expect(v2).not.toBe(v1);
    expect(await h.reads.get(v2, "k", h.compute("second"))).toBe("second");
    expect(h.computed()).toBe(2);
  });

  it("shares one computation between concurrent requests", async () => {
    const h = harness();
    const v = await h.reads.version();
    const results = await Promise.all([1, 2, 3].map(() => h.reads.get(v, "k", h.compute("once"))));
    expect(results).toEqual(["once", "once", "once"]);
    expect(h.computed()).toBe(1);
  });

  it("does not keep a failed computation", async () => {
    const h = harness();
    const v = await h.reads.version();
    await expect(h.reads.get(v, "k", () => Promise.reject(new Error("database gone")))).rejects.toThrow("gone");
    expect(await h.reads.get(v, "k", h.compute("recovered"))).toBe("recovered");
  });

  it("after a reorg, never serves what was computed on the abandoned branch, even at a repeated checkpoint", async () => {
    const h = harness();
    h.moveTo(B);
    const abandoned = await h.reads.version();
    await h.reads.get(abandoned, "k", h.compute("abandoned branch"));
    h.moveTo(A); // the index went back
    await h.reads.version();
    h.moveTo(B); // and a replacement block has the same checkpoint
    const replaced = await h.reads.version();
    expect(replaced).not.toBe(abandoned);
    expect(await h.reads.get(replaced, "k", h.compute("new branch"))).toBe("new branch");
  });

  it("after a reorg no read saw, never serves the replaced block's result at its repeated checkpoint", async () => {
    const h = harness();
    h.moveTo(B, "1001");
    const replaced = await h.reads.version();
    await h.reads.get(replaced, "k", h.compute("replaced block"));
    // Ponder went back to A and wrote the replacement block at B (same checkpoint) between two reads.
    h.moveTo(B, "1003");
    const replacement = await h.reads.version();
    expect(replacement).not.toBe(replaced);
    expect(await h.reads.get(replacement, "k", h.compute("replacement block"))).toBe("replacement block");
  });

  it("holds at most max results, dropping the least recently used", async () => {
    const h = harness(2);
    const v = await h.reads.version();
    await h.reads.get(v, "a", h.compute("a"));
    await h.reads.get(v, "b", h.compute("b"));
    await h.reads.get(v, "a", h.compute("a2")); // a is now the most recent
    await h.reads.get(v, "c", h.compute("c")); // b goes
    expect(h.computed()).toBe(3);
    expect(await h.reads.get(v, "a", h.compute("a3"))).toBe("a");
    expect(await h.reads.get(v, "b", h.compute("b2"))).toBe("b2");
  });
});

describe("coalesced", () => {
  it("answers each caller with a read begun after it called, one read per round trip", async () => {
    let reads = 0;
    const pending: ((value: number) => void)[] = [];
    const read = coalesced(
      () =>
        new Promise<number>((resolve) => {
          reads += 1;
          pending.push(resolve);
        }),
    );
    const first = read(); // begins read 1
    const during = [read(), read()]; // read 1 began before them: they share read 2
    expect(reads).toBe(1);
    pending.shift()!(1);
    expect(await first).toBe(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(reads).toBe(2);
    pending.shift()!(2);
    expect(await Promise.all(during)).toEqual([2, 2]);
    const after = read(); // nothing in flight: begins read 3
    expect(reads).toBe(3);
    pending.shift()!(3);
    expect(await after).toBe(3);
  });

  it("passes a failed read to its callers and reads again for the next", async () => {
    let fail = true;
    const read = coalesced(async () => {
      if (fail) throw new Error("database gone");
      return "ok";
    });
    await expect(read()).rejects.toThrow("gone");
    fail = false;
    expect(await read()).toBe("ok");
  });
});
