import { createServer, type Server, type Socket } from "node:net";
import { Hono } from "hono";
import pg from "pg";
import { erc20Abi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../http/env.ts";
import { handleError } from "../http/error-handler.ts";
import type { IndexGate } from "../index-gate.ts";
import { createLogger } from "../logger.ts";
import { createChainService, rawRequest } from "./chain-service.ts";
import { clientForRequest, endChainDeadlines, isChainUnavailable, requestDeadline } from "./chain-unavailable.ts";

/** A node that accepts connections and never answers, as a SIGSTOPped anvil does. */
let stalled: Server;
const sockets = new Set<Socket>();
let rpcUrl: string;
beforeAll(async () => {
  stalled = createServer((socket) => sockets.add(socket));
  await new Promise<void>((r) => stalled.listen(0, "127.0.0.1", r));
  rpcUrl = `http://127.0.0.1:${(stalled.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((r) => stalled.close(() => r()));
});

const DEADLINE_MS = 300;

/** The host's error handling around one route (`/stalled` reads the stalled node with the request's client). */
function app(gate?: IndexGate) {
  const { client } = createChainService(rpcUrl, 31337);
  const hono = new Hono<AppEnv>();
  hono.onError(handleError(createLogger("error")));
  hono.use("*", async (c, next) => {
    c.set("requestId", "r-1");
    if (gate) c.set("indexGate", gate);
    await next();
  });
  hono.get("/api/v2/stalled", async (c) => {
    const onNode = clientForRequest(c, client, DEADLINE_MS);
    const token = "0x0000000000000000000000000000000000000001";
    await onNode.readContract({ abi: erc20Abi, address: token, functionName: "totalSupply" });
    return c.json({});
  });
  hono.get("/api/v2/views-dropped", (c) => {
    c.set("requestChainId", 31337);
    // What pg reports for a query on a chain view dropped while the indexer restarts.
    const error = new pg.DatabaseError('relation "ledger_chain_31337.token" does not exist', 0, "error");
    error.code = "42P01";
    throw error;
  });
  return hono;
}

describe("a node that does not answer", () => {
  it("ends a request's reads at its deadline with a TimeoutError, and later reads of that request at once", async () => {
    const { client } = createChainService(rpcUrl, 31337);
    const request = {}; // a request's context: the deadline is per request
    const started = Date.now();
    const error = await clientForRequest(request as never, client, DEADLINE_MS)
      .getBlockNumber()
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1_500);
    expect(isChainUnavailable(error)).toBe(true);
    const again = Date.now();
    await expect(clientForRequest(request as never, client, DEADLINE_MS).getChainId()).rejects.toThrow();
    expect(Date.now() - again).toBeLessThan(DEADLINE_MS);
  });

  it("clears a request's deadline timers once its answer is made", async () => {
    const { client } = createChainService(rpcUrl, 31337);
    let signal: AbortSignal | undefined;
    const hono = new Hono();
    hono.use("*", endChainDeadlines);
    hono.get("/quick", (c) => {
      signal = requestDeadline(c, client, DEADLINE_MS);
      return c.json({});
    });
    expect((await hono.request("/quick")).status).toBe(200);
    await new Promise((r) => setTimeout(r, DEADLINE_MS + 100));
    expect(signal?.aborted).toBe(false); // its timer went with the request; it would have fired by now
  });

  it("ends a request's raw calls at the same deadline as its client's", async () => {
    const { client } = createChainService(rpcUrl, 31337);
    const request = {};
    const signal = requestDeadline(request as never, client, DEADLINE_MS);
    expect(requestDeadline(request as never, client, DEADLINE_MS)).toBe(signal); // one deadline per request and node
    const started = Date.now();
    const call = { to: "0x0000000000000000000000000000000000000001", data: "0x" };
    const error = await rawRequest(
      client,
      signal,
    )({ method: "eth_call", params: [call, "latest"] }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1_500);
    expect(isChainUnavailable(error)).toBe(true);
    await expect(clientForRequest(request as never, client, DEADLINE_MS).getChainId()).rejects.toThrow();
  });

  it("is answered 503 SERVICE_UNAVAILABLE within the deadline, never a 500 or a hang", async () => {
    const started = Date.now();
    const res = await app().request("/api/v2/stalled");
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      status: 503,
      data: { id: "SVC-0083", retryable: true, category: "dependency" },
    });
    expect(elapsed).toBeLessThan(DEADLINE_MS + 1_500);
  });
});

describe("a chain view missing under a query", () => {
  it("is answered 503 INDEXER_REINDEXING with Retry-After (also in the envelope), and reopens the gate's check", async () => {
    const missing: number[] = [];
    const gate: IndexGate = { enter: async () => {}, viewsMissing: (chainId) => missing.push(chainId) };
    const res = await app(gate).request("/api/v2/views-dropped");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({
      code: "INDEXER_REINDEXING",
      data: { id: "SVC-0018", retryable: true, retryAfterSeconds: 1, chainId: 31337 },
    });
    expect(missing).toEqual([31337]);
  });
});
