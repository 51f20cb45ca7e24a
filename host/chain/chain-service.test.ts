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

it("sends each call of `eagerClient` at once while the node answers fewer than two", async () => {
  const { eagerClient } = createChainService(url, 31337);
  const [number] = await Promise.all([eagerClient.getBlockNumber({ cacheTime: 0 }), eagerClient.getGasPrice()]);
  expect(number).toBe(42n);
  expect(requests).toEqual([1, 1]);
});

it("sends the calls `eagerClient` makes while two are in flight together, each answered its own result", async () => {
  const { eagerClient } = createChainService(url, 31337);
  const answers = await Promise.all(Array.from({ length: 6 }, () => eagerClient.getGasPrice()));
  expect(answers).toEqual(Array(6).fill(42n));
  expect(requests).toEqual([1, 1, 4]);
});
