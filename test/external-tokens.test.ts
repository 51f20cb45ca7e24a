// External tokens end to end over HTTP against the real stack: ERC-20s the test deploys itself are inspected live
// (eligible), registered through the API (a registry write), listed from the index with their facets, filters and
// sorts (supply and pause following the token's own events after registration), and inspected again
// (already-registered); a
// platform token is factory-token and not eligible, an address without code is no-code; the legacy list's shape;
// an allowance on a registered token from the signing wallet.
import pg from "pg";
import { type Address, createPublicClient, createWalletClient, erc20Abi, getAddress, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileContracts } from "../scripts/contracts/compile.ts";
import { anvilAccount } from "./support/api-flows.ts";
import { organizationStack } from "./support/shared-stack.ts";
import {
  createDepositToken,
  json,
  platformDbUrl,
  signerOf,
  stackChain,
  type TestStack,
  waitForTerminal,
} from "./support/stack.ts";

const NO_CODE = "0x000000000000000000000000000000000000dEaD";

describe("external tokens, end to end over HTTP", () => {
  let stack: TestStack;
  let eurc: Address;
  let bond: Address;
  let pausable: Address;
  let mint: (token: Address, amount: bigint) => Promise<void>;
  let setPaused: (token: Address, paused: boolean) => Promise<void>;

  const get = async (path: string) => {
    const res = await stack.api(path);
    return { status: res.status, body: await json(res) };
  };
  const register = async (tokenAddress: string, tokenType: string, headers: Record<string, string> = {}) => {
    const res = await stack.api("/api/v2/external-tokens", {
      method: "POST",
      headers,
      body: JSON.stringify({ tokenAddress, tokenType }),
    });
    return { status: res.status, body: await json(res) };
  };
  /** Polls the list until `done` holds (the index follows the token's own events within a few blocks). */
  const until = async (path: string, done: (body: { data: Record<string, unknown>[] }) => boolean) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { body } = await get(path);
      if (done(body)) return body;
      if (Date.now() > deadline) throw new Error(`${path} still answers ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  beforeAll(async () => {
    stack = await organizationStack("external-tokens");
    const chain = stackChain(stack);
    const { MockERC20, MockPausableERC20 } = compileContracts().contracts;
    // An account the platform never signs with: its transactions reach anvil in its own nonce order.
    const wallet = createWalletClient({ account: anvilAccount(8), chain, transport: http() });
    const client = createPublicClient({ chain, transport: http() });
    const deploy = async (contract: typeof MockERC20, args: unknown[]) => {
      const hash = await wallet.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args });
      const receipt = await client.waitForTransactionReceipt({ hash });
      return getAddress(receipt.contractAddress!);
    };
    mint = async (token, amount) => {
      const hash = await wallet.writeContract({
        abi: MockERC20.abi,
        address: token,
        functionName: "mint",
        args: [wallet.account.address, amount],
      });
      await client.waitForTransactionReceipt({ hash });
    };
    setPaused = async (token, paused) => {
      const hash = await wallet.writeContract({
        abi: MockPausableERC20.abi,
        address: token,
        functionName: paused ? "pause" : "unpause",
      });
      await client.waitForTransactionReceipt({ hash });
    };
    eurc = await deploy(MockERC20, ["Euro Coin", "EURC", 6]);
    await mint(eurc, 1_500_000n);
    bond = await deploy(MockERC20, ["Acme Bond 2030", "ACB30", 18]);
    // Paused before its registration: the registration event carries it.
    pausable = await deploy(MockPausableERC20, ["Paused Coin", "PSC"]);
    await setPaused(pausable, true);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("inspects an ERC-20 the platform does not know: eligible, metadata human-readable", async () => {
    const { status, body } = await get(`/api/v2/contracts/${eurc}`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      address: eurc,
      hasCode: true,
      token: { name: "Euro Coin", symbol: "EURC", decimals: 6, totalSupply: "1.5" },
      isSmart: false,
      knownTo: null,
      registration: { eligible: true, blockingReason: null },
    });
    expect(body.links.self).toBe(`/v2/contracts/${eurc}`);
  });

  it("registers it: 202, the request completes with data.tokenAddress", async () => {
    const accepted = await register(eurc, "stablecoin");
    expect(accepted.status).toBe(202);
    expect(accepted.body.status).toBe("QUEUED");
    const done = await waitForTerminal(stack, accepted.body.statusUrl);
    expect(done).toMatchObject({ status: "COMPLETED", kind: "externalToken.register" });
    expect(getAddress(done.result.tokenAddress)).toBe(eurc);

    const keyed = { prefer: "wait=30", "idempotency-key": "register-acme-bond" };
    const waited = await register(bond, "bond", keyed);
    expect(waited.status).toBe(200);
    expect(getAddress(waited.body.data.tokenAddress)).toBe(bond);
    expect(waited.body.meta.txHashes).toHaveLength(1);
    // A retry with the same key answers as the first request did, though the token is registered by now.
    const retried = await register(bond, "bond", keyed);
    expect(retried.status).toBe(200);
    expect(retried.body.data.transactionId).toBe(waited.body.data.transactionId);

    expect((await register(pausable, "cryptocurrency", { prefer: "wait=30" })).status).toBe(200);
  });

  it("lists the registered tokens with exactly the spec's fields, facets type and paused", async () => {
    const { status, body } = await get("/api/v2/external-tokens");
    expect(status).toBe(200);
    expect(body.meta.total).toBe(3);
    // Newest registration first (the default sort is -externalRegisteredAt).
    expect(body.data.map((t: { id: string }) => t.id)).toEqual([pausable, bond, eurc]);
    const item = body.data[2];
    expect(Object.keys(item).sort()).toEqual(
      [
        "id",
        "name",
        "symbol",
        "decimals",
        "totalSupply",
        "totalSupplyExact",
        "type",
        "pausable",
        "externalRegisteredAt",
        "externalRegisteredBy",
        "externalDetectedInterfaces",
        "implementsERC3643",
        "implementsSMART",
      ].sort(),
    );
    expect(item).toMatchObject({
      id: eurc,
      name: "Euro Coin",
      symbol: "EURC",
      decimals: 6,
      totalSupply: "1.5",
      totalSupplyExact: "1500000",
      type: "stablecoin",
      pausable: { paused: false },
      externalDetectedInterfaces: ["ERC20"],
      implementsERC3643: false,
      implementsSMART: false,
    });
    expect(item.externalRegisteredBy.id).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(Date.parse(item.externalRegisteredAt)).toBeGreaterThan(Date.parse("2020-01-01"));
    expect(body.meta.facets.type).toEqual(
      expect.arrayContaining([
        { value: "bond", count: 1 },
        { value: "stablecoin", count: 1 },
        { value: "cryptocurrency", count: 1 },
      ]),
    );
    expect(body.meta.facets.paused).toEqual([
      { value: false, count: 2 },
      { value: true, count: 1 },
    ]);
    expect(body.data[0]).toMatchObject({ id: pausable, decimals: 18, pausable: { paused: true } });
  });

  it("filters on name, symbol, type and externalRegisteredAt, searches filter[q], sorts; refuses other fields", async () => {
    const ids = async (query: string) =>
      (await get(`/api/v2/external-tokens?${query}`)).body.data.map((t: { id: string }) => t.id);
    expect(await ids("filter[type]=bond")).toEqual([bond]);
    expect(await ids("filter[symbol]=EURC")).toEqual([eurc]);
    expect(await ids("filter[name][iLike]=%25euro%25")).toEqual([eurc]);
    expect(await ids("filter[q]=acme")).toEqual([bond]);
    expect(await ids("filter[q]=coin&sort=symbol")).toEqual([eurc, pausable]);
    expect(await ids("filter[q]=stablecoin")).toEqual([eurc]);
    expect(await ids("sort=name")).toEqual([bond, eurc, pausable]);
    expect(await ids("sort=-symbol")).toEqual([pausable, eurc, bond]);
    expect(await ids("filter[externalRegisteredAt][gt]=2000-01-01T00:00:00Z")).toHaveLength(3);
    expect(await ids("filter[externalRegisteredAt][lt]=2000-01-01T00:00:00Z")).toEqual([]);

    const paused = await get("/api/v2/external-tokens?filter[paused]=true");
    expect(paused.status).toBe(400);
    expect(paused.body.code).toBe("COLLECTION_FILTER_FIELD_UNKNOWN");
    const bySupply = await get("/api/v2/external-tokens?sort=totalSupply");
    expect(bySupply.status).toBe(400);
  });

  it("follows the token's own mints after registration", async () => {
    await mint(eurc, 2_000_000n);
    const body = await until("/api/v2/external-tokens?filter[symbol]=EURC", (b) => b.data[0]?.totalSupply === "3.5");
    expect(body.data[0].totalSupplyExact).toBe("3500000");
  });

  it("follows the token's own Paused and Unpaused", async () => {
    const paused = (b: { data: Record<string, unknown>[] }) =>
      (b.data[0]?.pausable as { paused: boolean } | undefined)?.paused;
    await setPaused(pausable, false);
    await until("/api/v2/external-tokens?filter[symbol]=PSC", (b) => paused(b) === false);
    await setPaused(pausable, true);
    await until("/api/v2/external-tokens?filter[symbol]=PSC", (b) => paused(b) === true);
  });

  it("inspects it again: already-registered, known as an external token; a second registration is refused", async () => {
    const { body } = await get(`/api/v2/contracts/${eurc}`);
    expect(body.data).toMatchObject({
      hasCode: true,
      knownTo: "external-token",
      registration: { eligible: false, blockingReason: "already-registered" },
    });
    const again = await register(eurc, "stablecoin");
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("RESOURCE_ALREADY_EXISTS");
    expect(again.body.data).toMatchObject({ tokenAddress: eurc, blockingReason: "already-registered" });
  });

  it("approves a spender of the signing wallet's units of a registered token; an unregistered one is a 404", async () => {
    const spender = "0x00000000000000000000000000000000000a11ce";
    const approve = (token: string) =>
      stack.api(`/api/v2/external-tokens/${token}/approvals`, {
        method: "POST",
        headers: { prefer: "wait=30" },
        body: JSON.stringify({ spender, amount: "250000" }),
      });
    const res = await approve(eurc);
    const body = await json(res);
    expect([res.status, body.data.status], JSON.stringify(body)).toEqual([200, "COMPLETED"]);
    const db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
    const signer = await signerOf(db, stack.platform.credentials.organizationId).finally(() => db.end());
    const allowance = await createPublicClient({ chain: stackChain(stack), transport: http() }).readContract({
      abi: erc20Abi,
      address: eurc,
      functionName: "allowance",
      args: [signer, spender],
    });
    expect(allowance).toBe(250_000n);

    const unregistered = await approve(NO_CODE);
    expect(unregistered.status).toBe(404);
    expect((await json(unregistered)).code).toBe("EXTERNAL_TOKEN_NOT_FOUND");
  });

  it("a platform token is factory-token and not eligible", async () => {
    const token = getAddress(await createDepositToken(stack, "Platform Deposit", "PDEP"));
    const { body } = await get(`/api/v2/contracts/${token}`);
    expect(body.data).toMatchObject({
      address: token,
      hasCode: true,
      token: { name: "Platform Deposit", symbol: "PDEP", totalSupply: "0" },
      knownTo: "factory-token",
      registration: { eligible: false, blockingReason: "system-managed" },
    });
    const refused = await register(token, "deposit");
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("EXTERNAL_TOKEN_NOT_ELIGIBLE");
    expect(refused.body.data.blockingReason).toBe("system-managed");
  });

  it("an address without code is no-code; a malformed address is a 400", async () => {
    const { status, body } = await get(`/api/v2/contracts/${NO_CODE}`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      address: getAddress(NO_CODE),
      hasCode: false,
      token: null,
      isSmart: false,
      knownTo: null,
      registration: { eligible: false, blockingReason: "no-code" },
    });
    const refused = await register(NO_CODE, "other");
    expect(refused.status).toBe(422);
    expect(refused.body.data.blockingReason).toBe("no-code");
    expect((await get("/api/v2/contracts/0x1234")).status).toBe(400);
    expect((await register("0x1234", "other")).status).toBe(400);
    expect((await register(bond, "")).status).toBe(400);
  });

  it("answers the legacy list as {tokens, totalCount}", async () => {
    const { status, body } = await get("/api/external-token");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["tokens", "totalCount"]);
    expect(body.totalCount).toBe(3);
    expect(body.tokens.map((t: { id: string }) => t.id)).toEqual([pausable, bond, eurc]);
    const paged = await get("/api/external-token?page[limit]=1&page[offset]=2");
    expect(paged.body).toMatchObject({ totalCount: 3, tokens: [{ id: eurc }] });
  });
});
