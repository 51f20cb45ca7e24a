import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createIndexStatus } from "./index-status.ts";

/** An indexer's /status (Ponder's shape) at a block the test moves, counting the reads. */
async function statusServer() {
  const state = { block: 10, reads: 0 };
  const server: Server = createServer((_req, res) => {
    state.reads += 1;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ chain31337: { id: 31337, block: { number: state.block, timestamp: 0 } } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { state, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("createIndexStatus", () => {
  it("answers at once for a block already indexed, and reads a chain's block", async () => {
    const server = await statusServer();
    close = server.close;
    const status = createIndexStatus(server.url);
    expect(await status.waitForBlock(31337, 10n, 1_000)).toBe(true);
    expect(await status.indexedBlock(31337)).toBe(10);
    expect(await status.indexedBlock(1)).toBeUndefined();
  });

  it("lets every concurrent waiter share one poll, each answered once its block is indexed", async () => {
    const server = await statusServer();
    close = server.close;
    const status = createIndexStatus(server.url);
    const waits = Array.from({ length: 20 }, (_, i) => status.waitForBlock(31337, 11 + (i % 2), 5_000));
    await new Promise((r) => setTimeout(r, 300));
    const readsWhileWaiting = server.state.reads;
    // Alone, 20 waiters polling every 100 ms would have read it about 60 times.
    expect(readsWhileWaiting).toBeLessThanOrEqual(10);
    server.state.block = 12;
    expect(await Promise.all(waits)).toEqual(Array.from({ length: 20 }, () => true));
    const after = server.state.reads;
    await new Promise((r) => setTimeout(r, 200));
    expect(server.state.reads).toBe(after); // no waiter left: no more polls
  });

  it("gives up at the deadline, also when the indexer does not answer", async () => {
    const server = await statusServer();
    close = server.close;
    expect(await createIndexStatus(server.url).waitForBlock(31337, 99n, 150)).toBe(false);
    const unreachable = createIndexStatus("http://127.0.0.1:9");
    expect(await unreachable.waitForBlock(31337, 1n, 150)).toBe(false);
    expect(await unreachable.indexedBlock(31337)).toBeUndefined();
  });
});
