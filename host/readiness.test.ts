import { createServer as createHttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServedChains } from "./chain/served-chains.ts";
import { openDatabases } from "./db/database.ts";
import { createIndexStatus } from "./index-status.ts";
import { readinessReport, within } from "./readiness.ts";

/** A server that accepts connections and never answers: a SIGSTOPped anvil, a hung indexer. */
let stalled: Server;
const sockets = new Set<Socket>();
let stalledUrl: string;
beforeAll(async () => {
  stalled = createServer((socket) => sockets.add(socket));
  await new Promise<void>((r) => stalled.listen(0, "127.0.0.1", r));
  stalledUrl = `http://127.0.0.1:${(stalled.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((r) => stalled.close(() => r()));
});

describe("readiness checks", () => {
  it("give a part that does not answer its limit, then report it false", async () => {
    const started = Date.now();
    expect(await within(() => new Promise<boolean>(() => {}), false, 100)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await within(async () => 7, undefined, 100)).toBe(7);
    expect(await within(() => Promise.reject(new Error("down")), "fallback", 100)).toBe("fallback");
  });

  it("answer within about a second when the chain stalls, naming it: chain false", async () => {
    // The indexer answers (caught up at block 5); the node does not; the database is not there.
    const indexer = createHttpServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ chain31337: { id: 31337, block: { number: 5, timestamp: 0 } } }));
    });
    await new Promise<void>((r) => indexer.listen(0, "127.0.0.1", r));
    const db = openDatabases("postgres://nobody:nothing@127.0.0.1:9/none", "ledger", 1);
    try {
      const chains = createServedChains([
        { chainId: 31337, rpcUrl: stalledUrl, systemFactory: "0x0000000000000000000000000000000000000001" },
      ]);
      const index = createIndexStatus(`http://127.0.0.1:${(indexer.address() as { port: number }).port}`);
      const started = Date.now();
      const report = await readinessReport({ db, chains, index, workerRunning: () => true });
      const elapsed = Date.now() - started;
      expect(elapsed).toBeLessThan(2_000); // the bound for /readyz during a stall
      expect(report.ready).toBe(false);
      expect(report.checks).toMatchObject({ chain: false, database: false, worker: true });
      expect(report.chain).toMatchObject({ chainId: 31337, head: null, indexedBlock: 5 });
    } finally {
      await db.close();
      await new Promise<void>((r) => indexer.close(() => r()));
    }
  });
});
