import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type LoopbackServer, loopbackServer } from "../../test/support/loopback-server.ts";
import { createChainService } from "./chain-service.ts";

/** The HTTP requests a loopback JSON-RPC endpoint received: how many calls each carried (a batch is an array). */
const requests: number[] = [];
let server: LoopbackServer;
let url: string;

beforeAll(async () => {
  server = await loopbackServer((_, body, response) => {
    const parsed = JSON.parse(body) as { id: number } | { id: number }[];
    const list = Array.isArray(parsed) ? parsed : [parsed];
    requests.push(list.length);
    const answers = list.map(({ id }) => ({ jsonrpc: "2.0", id, result: "0x2a" }));
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
  });
  url = server.url;
});

afterAll(() => server.close());

beforeEach(() => {
  requests.length = 0;
});

it("gathers concurrent calls into one JSON-RPC batch on `client`", async () => {
  const { client } = createChainService(url, 31337);
  await Promise.all([client.getBlockNumber({ cacheTime: 0 }), client.getGasPrice(), client.getChainId()]);
  expect(requests).toEqual([3]);
});

it("sends each call of `unbatchedClient` at once, in a request of its own", async () => {
  const { unbatchedClient } = createChainService(url, 31337);
  const [number] = await Promise.all([unbatchedClient.getBlockNumber({ cacheTime: 0 }), unbatchedClient.getGasPrice()]);
  expect(number).toBe(42n);
  expect(requests).toEqual([1, 1]);
});
