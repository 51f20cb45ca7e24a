import { afterAll, beforeAll, expect, it } from "vitest";
import { type LoopbackServer, loopbackServer } from "../../test/support/loopback-server.ts";
import { rpcFetch } from "./rpc-fetch.ts";

let server: LoopbackServer;
let url: string;

beforeAll(async () => {
  server = await loopbackServer((request, body, response) => {
    if (request.url === "/empty") return response.writeHead(204).end();
    if (request.url === "/stall") return; // never answers
    response.setHeader("content-type", "application/json");
    response.setHeader("set-cookie", ["a=1", "b=2"]);
    response.end(JSON.stringify({ method: request.method, contentType: request.headers["content-type"], body }));
  });
  url = server.url;
});

afterAll(() => server.close());

it("sends the method, headers and body, and answers a Response with the status, headers and body", async () => {
  const response = await rpcFetch(`${url}/rpc`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
  });
  expect(response.ok).toBe(true);
  expect(response.headers.get("content-type")).toBe("application/json");
  expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
  expect(await response.json()).toEqual({
    method: "POST",
    contentType: "application/json",
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
  });
});

it("answers a status without a body with none", async () => {
  const response = await rpcFetch(`${url}/empty`, { method: "POST", body: "{}" });
  expect(response.status).toBe(204);
  expect(response.body).toBeNull();
});

it("rejects with the signal's reason once it aborts, as fetch does", async () => {
  const reason = new Error("the request's deadline passed");
  const controller = new AbortController();
  setTimeout(() => controller.abort(reason), 50);
  await expect(rpcFetch(`${url}/stall`, { method: "POST", body: "{}", signal: controller.signal })).rejects.toBe(
    reason,
  );
});
