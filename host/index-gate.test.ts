import { describe, expect, it } from "vitest";
import { ApiError } from "./errors/api-error.ts";
import { createIndexGate, type IndexGateProbes } from "./index-gate.ts";

const CHAIN = 31337;
const TIMING = { probeMs: 200, catchUpMs: 200, recheckMs: 100, closedRecheckMs: 20 };

/** A chain, its views and its index as the gate sees them, moved by the test; counts the views probes. */
function platform() {
  const state = {
    publication: null as string | null,
    /** The index build backfilling while the views serve a previous one. */
    building: null as string | null,
    head: 100n,
    indexed: 100n,
    publicationReads: 0,
    /** The database does not answer the views probe (a loaded pool). */
    databaseStalled: false,
  };
  const probes: IndexGateProbes = {
    async publication() {
      state.publicationReads += 1;
      if (state.databaseStalled) return new Promise(() => {});
      return state.publication;
    },
    async building() {
      if (state.databaseStalled) return new Promise(() => {});
      return state.building;
    },
    head: async () => state.head,
    async waitForBlock(_chainId, block, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (state.indexed >= block) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
  return { state, gate: createIndexGate(probes, TIMING) };
}

async function refusal(entering: Promise<void>) {
  try {
    await entering;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  return undefined;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the index gate", () => {
  it("answers 503 INDEXER_REINDEXING with Retry-After while the chain views are not published", async () => {
    const { gate } = platform();
    const error = await refusal(gate.enter(CHAIN));
    expect(error).toMatchObject({
      code: "INDEXER_REINDEXING",
      status: 503,
      headers: { "Retry-After": "1" },
      details: { retryAfterSeconds: 1, chainId: CHAIN },
    });
    expect(error?.definition).toMatchObject({ id: "SVC-0018", retryable: true });
  });

  it("stays closed on published views whose index is behind the head, and opens once it reaches it", async () => {
    const { state, gate } = platform();
    state.publication = "1";
    state.indexed = 70n; // Ponder is ready but re-reads its unfinalised blocks: a token of block 90 is not there yet
    const started = Date.now();
    expect((await refusal(gate.enter(CHAIN)))?.code).toBe("INDEXER_REINDEXING");
    expect(Date.now() - started).toBeLessThan(TIMING.probeMs + 400); // waited for it, within the probe's limit
    // Nearly there: the request waits for it rather than answering 503.
    setTimeout(() => {
      state.indexed = 100n;
    }, 50);
    await pause(TIMING.closedRecheckMs + 20);
    expect(await refusal(gate.enter(CHAIN))).toBeUndefined();
  });

  it("once caught up, stays open while the index trails new blocks, and closes for a new publication", async () => {
    const { state, gate } = platform();
    state.publication = "1";
    await gate.enter(CHAIN);
    state.head = 105n; // blocks arrive: the usual lag is no restart
    await pause(TIMING.recheckMs + 20);
    expect(await refusal(gate.enter(CHAIN))).toBeUndefined();
    // The indexer restarted: the supervisor dropped the views and published new ones, the index behind again.
    state.publication = "2";
    state.indexed = 90n;
    await pause(TIMING.recheckMs + 20);
    expect((await refusal(gate.enter(CHAIN)))?.code).toBe("INDEXER_REINDEXING");
    state.indexed = 105n;
    await pause(TIMING.closedRecheckMs + 20);
    expect(await refusal(gate.enter(CHAIN))).toBeUndefined();
  });

  it("checks again at once after a read found the views missing", async () => {
    const { state, gate } = platform();
    state.publication = "1";
    await gate.enter(CHAIN);
    state.publication = null;
    gate.viewsMissing(CHAIN); // within recheckMs: without it the gate would still be open
    expect((await refusal(gate.enter(CHAIN)))?.code).toBe("INDEXER_REINDEXING");
  });

  it("shares one check among concurrent requests, and stays open when the database is slow to say", async () => {
    const { state, gate } = platform();
    state.publication = "1";
    await Promise.all(Array.from({ length: 50 }, () => gate.enter(CHAIN)));
    expect(state.publicationReads).toBe(1);
    state.databaseStalled = true;
    await pause(TIMING.recheckMs + 20);
    const started = Date.now();
    expect(await refusal(gate.enter(CHAIN))).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(TIMING.probeMs + 400);
  });

  it("waits for the head it first saw for a publication, not a head a burst of writes keeps moving", async () => {
    const { state, gate } = platform();
    state.publication = "views-1";
    state.head = 200n;
    state.indexed = 150n; // the indexer re-reads what its restart rewound
    expect(await refusal(gate.enter(CHAIN))).toMatchObject({ code: "INDEXER_REINDEXING" });
    // Meanwhile writes keep mining a block each: the head runs ahead of the index, which passes the first head.
    state.head = 260n;
    state.indexed = 205n;
    await pause(TIMING.closedRecheckMs + 20);
    expect(await refusal(gate.enter(CHAIN))).toBeUndefined();
  });

  it("answers a client that opted in (Prefer: handling=strict) at once instead of waiting for the catch-up", async () => {
    const { state, gate } = platform();
    state.publication = "1";
    state.indexed = 70n; // a first start: the only build is still catching up
    let started = Date.now();
    const error = await refusal(gate.enter(CHAIN, { noWait: true }));
    expect(error).toMatchObject({
      code: "INDEXER_REINDEXING",
      headers: { "Retry-After": "1", "Preference-Applied": "handling=strict" },
    });
    expect(Date.now() - started).toBeLessThan(TIMING.catchUpMs / 2);
    // Another client, while that check still waits: it waits too (then 503), the opted-in one is answered at once.
    started = Date.now();
    const waiting = refusal(gate.enter(CHAIN));
    expect((await refusal(gate.enter(CHAIN, { noWait: true })))?.code).toBe("INDEXER_REINDEXING");
    expect(Date.now() - started).toBeLessThan(TIMING.catchUpMs / 2);
    expect((await waiting)?.headers).toEqual({ "Retry-After": "1" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMING.catchUpMs - 20);
    state.indexed = 100n;
    await pause(TIMING.closedRecheckMs + 20);
    expect(await refusal(gate.enter(CHAIN, { noWait: true }))).toBeUndefined();
  });

  it("serves a previous build while a new one backfills, and stays open when the views switch to it", async () => {
    const { state, gate } = platform();
    // A restart with a changed handler: the views still serve build A, frozen at block 60; build B backfills.
    state.publication = "views-of-A";
    state.building = "idx_b";
    state.indexed = 3n; // what the indexer (B) reports
    const started = Date.now();
    await gate.enter(CHAIN, { noWait: true });
    await gate.enter(CHAIN);
    expect(Date.now() - started).toBeLessThan(TIMING.catchUpMs / 2);
    // B reached the head: the supervisor points the views at it and clears `building` in one transaction. The gate
    // does not wait for (or close on) the new publication, even when the chain moved on meanwhile.
    state.publication = "views-of-B";
    state.building = null;
    state.head = 120n;
    state.indexed = 100n;
    await pause(TIMING.recheckMs + 20);
    const switched = Date.now();
    expect(await refusal(gate.enter(CHAIN))).toBeUndefined();
    expect(Date.now() - switched).toBeLessThan(TIMING.catchUpMs / 2);
    // A later publication (B's indexer restarted) is waited for again.
    state.publication = "views-of-B-again";
    await pause(TIMING.recheckMs + 20);
    expect((await refusal(gate.enter(CHAIN)))?.code).toBe("INDEXER_REINDEXING");
  });

  it("closes while a previous build serves if its views are dropped (its schema was): no build can answer", async () => {
    const { state, gate } = platform();
    state.publication = "views-of-A";
    state.building = "idx_b";
    await gate.enter(CHAIN);
    state.publication = null;
    gate.viewsMissing(CHAIN);
    expect((await refusal(gate.enter(CHAIN, { noWait: true })))?.code).toBe("INDEXER_REINDEXING");
    // B published (at its head): a gate that saw no previous build serving checks the catch-up as on a first start.
    state.publication = "views-of-B";
    state.building = null;
    state.indexed = 100n;
    await pause(TIMING.closedRecheckMs + 20);
    expect(await refusal(gate.enter(CHAIN))).toBeUndefined();
  });
});
