import { BaseError, createPublicClient, http } from "viem";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type LoopbackServer, loopbackServer } from "../../test/support/loopback-server.ts";
import { coalescingFetch } from "./coalescing-fetch.ts";
import { rpcFetch } from "./rpc-fetch.ts";

interface Call {
  id: number;
  method: string;
  params?: unknown[];
}

/** What the endpoint received: the methods of each HTTP request (a batch holds several). */
const requests: string[][] = [];
let server: LoopbackServer;
let url: string;
/** How the endpoint answers a batch (default: each call, in reverse order, to show answers are matched by id). */
let answerBatch: (calls: Call[]) => { status: number; body: unknown } = (calls) => ({
  status: 200,
  body: calls.map(answer).reverse(),
});

function answer({ id, method, params }: Call) {
  if (method === "eth_call")
    return { jsonrpc: "2.0", id, error: { code: 3, message: "execution reverted", data: "0xdead" } };
  return { jsonrpc: "2.0", id, result: method === "echo" ? params?.[0] : "0x2a" };
}

beforeAll(async () => {
  server = await loopbackServer(async (_, body, response) => {
    const parsed = JSON.parse(body) as Call | Call[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    requests.push(calls.map((call) => call.method));
    if (calls.some((call) => call.method === "slow")) await new Promise((resolve) => setTimeout(resolve, 100));
    if (calls.some((call) => call.method === "stall")) return; // never answers
    const { status, body: answered } = Array.isArray(parsed)
      ? answerBatch(calls)
      : { status: 200, body: answer(parsed) };
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answered));
  });
  url = server.url;
});

afterAll(() => server.close());

beforeEach(() => {
  requests.length = 0;
  answerBatch = (calls) => ({ status: 200, body: calls.map(answer).reverse() });
});

/** A viem client over the fetch (as the platform's eager client is), without viem's retries. */
const clientOver = (fetchFn: typeof fetch) =>
  createPublicClient({ transport: http(url, { fetchFn, retryCount: 0, timeout: 2_000 }) });
const echo = (client: ReturnType<typeof clientOver>, value: string) =>
  client.request({ method: "echo" as never, params: [value] as never });

it("sends each call at once while fewer than `lone` are in flight", async () => {
  const client = clientOver(coalescingFetch(rpcFetch, { lone: 2 }));
  expect(await Promise.all([echo(client, "a"), echo(client, "b")])).toEqual(["a", "b"]);
  expect(await echo(client, "c")).toBe("c");
  expect(requests).toEqual([["echo"], ["echo"], ["echo"]]);
});

it("holds the calls made while `lone` are in flight and sends them as one batch, each answered its own result", async () => {
  const client = clientOver(coalescingFetch(rpcFetch, { lone: 1 }));
  const slow = client.request({ method: "slow" as never });
  const held = await Promise.all(["a", "b", "c", "d"].map((value) => echo(client, value)));
  expect(held).toEqual(["a", "b", "c", "d"]);
  await slow;
  expect(requests).toEqual([["slow"], ["echo", "echo", "echo", "echo"]]);
});

it("keeps viem's error of a call that failed in a batch, and the batch's other answers", async () => {
  const client = clientOver(coalescingFetch(rpcFetch, { lone: 1 }));
  const slow = client.request({ method: "slow" as never });
  const [reverted, fine] = await Promise.allSettled([
    client.request({ method: "eth_call", params: [{ to: "0x0000000000000000000000000000000000000001" }, "latest"] }),
    echo(client, "fine"),
  ]);
  await slow;
  expect(requests[1]).toEqual(["eth_call", "echo"]);
  expect(fine).toEqual({ status: "fulfilled", value: "fine" });
  const error = (reverted as PromiseRejectedResult).reason as BaseError;
  expect(error).toBeInstanceOf(BaseError);
  expect(error.walk((e) => (e as { data?: unknown }).data === "0xdead")).toBeTruthy();
});

it("never holds a transaction: it goes out at once, in its sender's order", async () => {
  const client = clientOver(coalescingFetch(rpcFetch, { lone: 1 }));
  const slow = client.request({ method: "slow" as never });
  await client.request({ method: "eth_sendRawTransaction", params: ["0x02"] });
  await slow;
  expect(requests).toEqual([["slow"], ["eth_sendRawTransaction"]]);
});

it("gives each caller the node's refusal of a whole batch as its own call's", async () => {
  answerBatch = () => ({
    status: 413,
    body: { jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch too large" } },
  });
  const client = clientOver(coalescingFetch(rpcFetch, { lone: 1 }));
  const slow = client.request({ method: "slow" as never });
  const results = await Promise.allSettled([echo(client, "a"), echo(client, "b")]);
  await slow;
  for (const result of results) {
    expect(result.status).toBe("rejected");
    expect(String((result as PromiseRejectedResult).reason)).toContain("batch too large");
  }
});

it("asks again on its own a call the batch's answer left out", async () => {
  answerBatch = (calls) => ({ status: 200, body: calls.slice(1).map(answer) });
  const client = clientOver(coalescingFetch(rpcFetch, { lone: 1 }));
  const slow = client.request({ method: "slow" as never });
  expect(await Promise.all([echo(client, "a"), echo(client, "b")])).toEqual(["a", "b"]);
  await slow;
  expect(requests).toEqual([["slow"], ["echo", "echo"], ["echo"]]);
});

it("rejects a held call whose caller gave up, and sends the others", async () => {
  const fetchFn = coalescingFetch(rpcFetch, { lone: 1 });
  const slow = clientOver(fetchFn).request({ method: "slow" as never });
  const controller = new AbortController();
  const body = (value: string) => JSON.stringify({ jsonrpc: "2.0", id: value, method: "echo", params: [value] });
  const abandoned = fetchFn(url, { method: "POST", body: body("gone"), signal: controller.signal });
  const kept = fetchFn(url, { method: "POST", body: body("kept") });
  controller.abort(new Error("the caller's deadline"));
  await expect(abandoned).rejects.toThrow("the caller's deadline");
  expect(await (await kept).json()).toMatchObject({ id: "kept", result: "kept" });
  await slow;
  expect(requests).toEqual([["slow"], ["echo"]]);
});

it("times out a held call by its own deadline when the node stalls", async () => {
  const client = clientOver(coalescingFetch(rpcFetch, { lone: 1 }));
  const stalled = client.request({ method: "stall" as never }).catch((error) => error);
  const started = Date.now();
  await expect(echo(client, "a")).rejects.toThrow(/timed out/i);
  expect(Date.now() - started).toBeLessThan(3_000);
  await stalled;
});
