// Exchange rates end to end over HTTP against the real stack: the ECB provider reads a recorded eurofxref-daily.xml
// from a local server; /sync writes the rates on chain (one feed per pair, created on first use), the routes read
// them back from the index; a manual override wins over the feed until DELETE; the history lists both; a role
// without exchangeRates:update gets 403.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Address, createPublicClient, getAddress, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExchangeRateFeedAbi } from "../abis/ExchangeRateFeed.ts";
import { ExchangeRateFeedRegistryAbi } from "../abis/ExchangeRateFeedRegistry.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { bootStack, json, type TestStack } from "./support/stack.ts";

const ECB_DOCUMENT = readFileSync(join(import.meta.dirname, "fixtures/eurofxref-daily.xml"), "utf8");

describe("exchange rates, end to end over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  let ecb: Server;
  let ecbRequests = 0;
  let memberKey: string;

  const call = async (path: string, init: RequestInit & { key?: string } = {}) => {
    const res = await stack.api(`/api/v2/exchange-rates${path}`, init);
    return { status: res.status, body: await json(res) };
  };
  const put = (path: string, body: unknown, key?: string) =>
    call(path, { method: "PUT", body: JSON.stringify(body), key });

  beforeAll(async () => {
    ecb = createServer((req, res) => {
      ecbRequests++;
      if (req.url !== "/eurofxref-daily.xml") return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/xml" }).end(ECB_DOCUMENT);
    });
    await new Promise<void>((resolve) => ecb.listen(0, "127.0.0.1", resolve));
    const { port } = ecb.address() as AddressInfo;
    stack = await bootStack({
      EXCHANGE_RATES_PROVIDER: "ecb",
      EXCHANGE_RATES_ECB_URL: `http://127.0.0.1:${port}/eurofxref-daily.xml`,
    });
    ops = operator(stack);
    memberKey = await ops.keyFor(stack.platform.credentials.organizationId, "member");
  }, 180_000);

  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
    ecb?.close();
  });

  it("lists the provider's currencies, sorted, and caches them", async () => {
    const first = await call("/supported-currencies");
    expect(first.status).toBe(200);
    expect(first.body.data.providerKey).toBe("ecb");
    const currencies: string[] = first.body.data.currencies;
    expect(currencies).toHaveLength(31);
    expect(currencies).toEqual([...currencies].sort());
    expect(currencies).toContain("EUR");
    const before = ecbRequests;
    await call("/supported-currencies", { key: memberKey });
    expect(ecbRequests).toBe(before);
  });

  it("answers 404 for a pair nothing holds and 400 for a malformed code", async () => {
    const missing = await call("/EUR/USD");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("EXCHANGE_RATE_NOT_FOUND");
    expect((await call("/eur/usd")).status).toBe(400);
    expect((await put("/EUR/USD", { rate: "-1" })).status).toBe(400);
    expect((await put("/EUR/USD", { rate: "0" })).status).toBe(400);
  });

  it("syncs the recorded ECB document on chain, then serves it through the routes", async () => {
    const sync = await call("/sync", { method: "POST", headers: { prefer: "wait=60" } });
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);
    expect(sync.body.data).toMatchObject({ status: "COMPLETED", ratesUpdated: 30, feedsCreated: 30 });

    // On chain: the system's registry holds the pair's feed, in the AggregatorV3 shape.
    const row = await ops.db.platform
      .selectFrom("organizationChains")
      .select("contracts")
      .where("organizationId", "=", stack.platform.credentials.organizationId)
      .executeTakeFirstOrThrow();
    const client = createPublicClient({ transport: http(stack.platform.credentials.rpcUrl) });
    const registry = row.contracts?.exchangeRateFeedRegistry as Address;
    const feed = await client.readContract({
      address: registry,
      abi: ExchangeRateFeedRegistryAbi,
      functionName: "feed",
      args: ["EUR", "USD"],
    });
    const [roundId, answer, , updatedAt] = await client.readContract({
      address: feed,
      abi: ExchangeRateFeedAbi,
      functionName: "latestRoundData",
    });
    expect([roundId, answer, updatedAt]).toEqual([1n, 104_980_000n, BigInt(Date.parse("2026-11-24T15:00:00Z") / 1000)]);
    expect(await client.readContract({ address: feed, abi: ExchangeRateFeedAbi, functionName: "description" })).toBe(
      "EUR / USD",
    );

    const pair = await call("/EUR/USD", { key: memberKey });
    expect(pair.status).toBe(200);
    expect(pair.body.data).toMatchObject({
      baseCurrency: "EUR",
      quoteCurrency: "USD",
      rate: "1.0498",
      effectiveAt: "2026-11-24T15:00:00.000Z",
      feedAddress: getAddress(feed),
      source: "feed",
    });
    expect(pair.body.data.updatedAt).not.toBeNull();

    const list = await call("?filter[quoteCurrency]=JPY");
    expect(list.body.data).toEqual([expect.objectContaining({ quoteCurrency: "JPY", rate: "161.87" })]);
    expect((await call("")).body.meta.total).toBe(30);
  });

  it("lets a manual override win over the feed until DELETE restores the feed's value; the history lists both", async () => {
    const set = await put("/EUR/USD", { rate: "1.1000", effectiveAt: "2026-11-25T09:00:00Z" });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ rate: "1.1", effectiveAt: "2026-11-25T09:00:00.000Z", source: "override" });
    expect((await call("/EUR/USD")).body.data).toMatchObject({ rate: "1.1", source: "override" });
    expect((await call("?filter[quoteCurrency]=USD")).body.data[0]).toMatchObject({ rate: "1.1", source: "override" });

    const history = await call("/EUR/USD/history");
    expect(history.status).toBe(200);
    expect(history.body.meta.total).toBe(2);
    expect(history.body.data.map((h: { source: string; rate: string }) => [h.source, h.rate])).toEqual([
      ["override", "1.1"],
      ["feed", "1.0498"],
    ]);

    const removed = await call("/EUR/USD", { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ rate: "1.0498", source: "feed" });
    expect((await call("/EUR/USD")).body.data).toMatchObject({ rate: "1.0498", source: "feed" });
    const again = await call("/EUR/USD", { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("EXCHANGE_RATE_OVERRIDE_NOT_FOUND");

    const after = await call("/EUR/USD/history?filter[source]=override");
    expect(after.body.data).toEqual([expect.objectContaining({ rate: "1.1", removedAt: expect.any(String) })]);
  });

  it("keeps one live override per pair when overrides of it arrive at once", async () => {
    const answers = await Promise.all(["2", "3", "4", "5", "6", "7"].map((rate) => put("/GBP/JPY", { rate })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const live = await call("/GBP/JPY/history?filter[source]=override");
    expect(live.body.data.filter((h: { removedAt: string | null }) => h.removedAt === null)).toHaveLength(1);
    expect((await call("/GBP/JPY", { method: "DELETE" })).status).toBe(200);
  });

  it("refuses the writes to a role without their permission", async () => {
    const update = await put("/EUR/USD", { rate: "2" }, memberKey);
    expect(update.status).toBe(403);
    expect(update.body.code).toBe("USER_NOT_AUTHORIZED");
    expect((await call("/EUR/USD", { method: "DELETE", key: memberKey })).status).toBe(403);
    expect((await call("/sync", { method: "POST", key: memberKey })).status).toBe(403);
    expect((await call("/EUR/USD/history", { key: memberKey })).status).toBe(200);
  });
});
