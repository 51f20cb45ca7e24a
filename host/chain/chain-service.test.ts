import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createChainService } from "./chain-service.ts";

/** The HTTP requests a loopback JSON-RPC endpoint received: how many calls each carried (a batch is an array). */
const requests: number[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const parsed = JSON.parse(body) as { id: number } | { id: number }[];
    const list = Array.isArray(parsed) ? parsed : [parsed];
    requests.push(list.length);
    const answers = list.map(({ id }) => ({ jsonrpc: "2.0", id, result: "0x2a" }));
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

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
