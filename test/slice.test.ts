// The first slice, over HTTP only against the real stack: create a deposit token, mint, read the balance.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../host/auth/api-keys.ts";
import { bootStack, json, platformDbUrl, type TestStack, waitForTerminal } from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

describe("the platform boots and serves its first asset end to end", () => {
  let stack: TestStack;
  let tokenAddress: string;

  /**
   * The answers to a read that opted in (Prefer: handling=strict), sent every 20 ms from the moment the first start's
   * API key exists until it is answered 200: while the system deploys, then while the first index build catches up.
   */
  const strictReads: { status: number; code?: string; retryAfter: string | null; applied: string | null }[] = [];

  beforeAll(async () => {
    // Fresh: the restart below is compared with a first start that initialises the database and deploys.
    stack = await bootStack(
      {},
      {
        fresh: true,
        // The key is written before the system deploys and the index has a build to serve.
        async whileStarting({ env, dataDir }) {
          const path = join(dataDir, "credentials.json");
          const deadline = Date.now() + 120_000;
          while (!existsSync(path) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          const { apiKey } = JSON.parse(readFileSync(path, "utf8"));
          while (strictReads.at(-1)?.status !== 200 && Date.now() < deadline) {
            const res = await fetch(`http://127.0.0.1:${env.PORT}/api/v2/tokens`, {
              headers: { "x-api-key": apiKey, prefer: "handling=strict" },
            });
            const body = await json(res);
            const [retryAfter, applied] = ["retry-after", "preference-applied"].map((h) => res.headers.get(h));
            strictReads.push({ status: res.status, code: body.code, retryAfter, applied });
            await new Promise((r) => setTimeout(r, 20));
          }
        },
      },
    );
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("answers a reader who opted in 503 INDEXER_REINDEXING with Retry-After at once while the first index builds", () => {
    const codes = [...new Set(strictReads.map((read) => read.code ?? String(read.status)))];
    // CHAIN_NOT_READY while the local system deploys, INDEXER_REINDEXING until the index reaches the head, then 200.
    expect(codes.filter((code) => !["CHAIN_NOT_READY", "200"].includes(code))).toEqual(["INDEXER_REINDEXING"]);
    expect(strictReads.find((read) => read.code === "INDEXER_REINDEXING")).toEqual({
      status: 503,
      code: "INDEXER_REINDEXING",
      retryAfter: expect.stringMatching(/^[1-9][0-9]*$/),
      applied: "handling=strict",
    });
    expect(strictReads.at(-1)?.status).toBe(200);
  });

  it("writes the credentials once, mode 0600, and reports ready", async () => {
    const path = join(stack.dataDir, "credentials.json");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(readFileSync(path, "utf8"));
    expect(Object.keys(credentials).sort()).toEqual(["apiKey", "baseUrl", "chainId", "organizationId", "rpcUrl"]);
    expect(credentials.chainId).toBe(31337);
    expect((await fetch(`${stack.platform.baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${stack.platform.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    const body = await json(ready);
    expect(body.checks).toEqual({ database: true, chain: true, worker: true, index: true, systems: true });
    expect(body.chain).toMatchObject({ chainId: 31337, localSystem: "ready", systems: { ready: 1, pending: 0 } });
  });

  it("is not ready while the local organisation's system is not deployed and indexed (a write would fail)", async () => {
    const client = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await client.connect();
    const { organizationId } = stack.platform.credentials;
    const readyz = async () => {
      const res = await fetch(`${stack.platform.baseUrl}/readyz`);
      const body = await json(res);
      return { status: res.status, systems: body.checks.systems, chain: body.chain };
    };
    const set = (status: string, systemAddress: string) =>
      client.query(
        "update platform.organization_chains set status = $1, system_address = $2 where organization_id = $3",
        [status, systemAddress, organizationId],
      );
    const { rows } = await client.query(
      "select system_address from platform.organization_chains where organization_id = $1",
      [organizationId],
    );
    const systemAddress = rows[0].system_address as string;
    try {
      await set("pending", systemAddress);
      expect(await readyz()).toMatchObject({
        status: 503,
        systems: false,
        chain: { localSystem: "deploying", systems: { ready: 0, pending: 1 } },
      });
      // Recorded ready, but the index has no such system yet.
      await set("ready", "0x000000000000000000000000000000000000dead");
      expect(await readyz()).toMatchObject({ status: 503, systems: false, chain: { localSystem: "indexing" } });
    } finally {
      await set("ready", systemAddress);
      await client.end();
    }
    expect(await readyz()).toMatchObject({ status: 200, systems: true, chain: { localSystem: "ready" } });
  });

  it("lists the library templates with their required features", async () => {
    const res = await stack.api("/api/v2/token-templates");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = await json(res);
    expect(body.meta.total).toBe(5);
    expect(body.links.next).toBeNull();
    const byId = Object.fromEntries(body.data.map((t: { id: string }) => [t.id, t]));
    expect(Object.keys(byId).sort()).toEqual(["bond", "deposit", "equity", "fund", "stablecoin"]);
    expect(byId.bond.requiredFeatures).toEqual(["historical-balances", "maturity-redemption"]);
    expect(byId.deposit).toMatchObject({ requiredFeatures: [], availableForCreation: true, defaults: { decimals: 2 } });
  });

  it("creates a deposit token: 202, Location = statusUrl, then COMPLETED with the token's address", async () => {
    const res = await stack.api("/api/v2/tokens", {
      method: "POST",
      body: JSON.stringify({ templateId: "deposit", name: "Euro Deposit", symbol: "EURD", decimals: 2 }),
    });
    expect(res.status).toBe(202);
    const accepted = await json(res);
    expect(accepted).toMatchObject({ status: "QUEUED", transactionId: expect.any(String) });
    expect(accepted.statusUrl).toBe(`/v2/transaction-requests/${accepted.transactionId}`);
    expect(res.headers.get("location")).toBe(accepted.statusUrl);

    const done = await waitForTerminal(stack, accepted.statusUrl);
    expect(done).toMatchObject({
      kind: "token.create",
      status: "COMPLETED",
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      blockNumber: expect.stringMatching(/^\d+$/),
      description: "Create token Euro Deposit (EURD) from template deposit",
      chainId: 31337,
    });
    tokenAddress = done.result.tokenAddress;
    expect(tokenAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it("serves the token from the index under both paths", async () => {
    for (const path of [`/api/v2/token/${tokenAddress}`, `/api/v2/tokens/${tokenAddress}`]) {
      const res = await stack.api(path);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.data).toMatchObject({
        address: tokenAddress,
        name: "Euro Deposit",
        symbol: "EURD",
        decimals: 2,
        type: "deposit",
        totalSupply: "0",
        features: [],
      });
      expect(body.links.self).toBe(path.replace("/api", ""));
    }
  });

  it("mints to two recipients and shows the balances in the legacy holders route", async () => {
    const res = await stack.api(`/api/v2/tokens/${tokenAddress}/mint`, {
      method: "POST",
      body: JSON.stringify({ recipients: [ALICE, BOB], amounts: ["150050", "25"] }),
    });
    expect(res.status).toBe(202);
    const done = await waitForTerminal(stack, (await json(res)).statusUrl);
    expect(done).toMatchObject({ kind: "token.mint", status: "COMPLETED" });

    const holders = await stack.api(`/api/token/${tokenAddress}/holders`);
    expect(holders.status).toBe(200);
    const body = await json(holders);
    expect(body.totalCount).toBe(2);
    expect(body.token.balances).toEqual([
      {
        account: { id: ALICE.toLowerCase() },
        value: "1500.5",
        available: "1500.5",
        frozen: "0",
        isFrozen: false,
        lastUpdatedAt: expect.any(String),
      },
      {
        account: { id: BOB.toLowerCase() },
        value: "0.25",
        available: "0.25",
        frozen: "0",
        isFrozen: false,
        lastUpdatedAt: expect.any(String),
      },
    ]);
    const token = await json(await stack.api(`/api/v2/token/${tokenAddress}`));
    expect(token.data).toMatchObject({ totalSupply: "150075", holderCount: 2 });
  });

  it("answers bad input with the spec's envelopes, never a 500", async () => {
    const unauth = await stack.api("/api/v2/token-templates", { key: null });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get("x-request-id")).toBeTruthy();
    expect(await json(unauth)).toMatchObject({
      code: "UNAUTHORIZED",
      status: 401,
      data: { id: "SVC-0002", category: "auth", retryable: false },
    });

    const wrongKey = await stack.api("/api/v2/token-templates", { key: `svc_${"A".repeat(43)}` });
    expect(wrongKey.status).toBe(401);

    const invalid = await stack.api(`/api/v2/tokens/${tokenAddress}/mint`, {
      method: "POST",
      body: JSON.stringify({ recipients: [ALICE, "0x12"], amounts: ["1"] }),
    });
    expect(invalid.status).toBe(400);
    const invalidBody = await json(invalid);
    expect(invalidBody).toMatchObject({ code: "BAD_REQUEST", data: { id: "SVC-0001" } });
    expect(invalidBody.data.issues.map((i: { path: string }) => i.path)).toContain("recipients.1");

    const malformed = await stack.api("/api/v2/tokens", { method: "POST", body: "{not json" });
    expect(malformed.status).toBe(400);

    const unknownTemplate = await stack.api("/api/v2/token", {
      method: "POST",
      body: JSON.stringify({ templateId: "nope", name: "X", symbol: "X" }),
    });
    expect(unknownTemplate.status).toBe(404);
    expect((await json(unknownTemplate)).code).toBe("TOKEN_TEMPLATE_NOT_FOUND");

    const bond = await stack.api("/api/v2/tokens", {
      method: "POST",
      body: JSON.stringify({ templateId: "bond", name: "B", symbol: "B" }),
    });
    // The bond's maturity-redemption has no default for its dates, asset and treasury: each is named.
    expect(bond.status).toBe(400);
    const issues = (await json(bond)).data.issues.map((i: { path: string }) => i.path);
    expect(issues).toContain("featureConfigs.maturity-redemption.maturityDate");
    expect(issues).toContain("featureConfigs.maturity-redemption.treasury");

    const missing = await stack.api("/api/v2/token/0x0000000000000000000000000000000000000001");
    expect(missing.status).toBe(404);
    expect((await json(missing)).code).toBe("TOKEN_NOT_FOUND");

    // Found by the fuzz test: NUL characters cannot reach PostgreSQL text, and a pattern may end in a backslash.
    const nul = await stack.api("/api/v2/transaction-requests?filter[kind]=a%00b");
    expect(nul.status).toBe(400);
    expect((await json(nul)).code).toBe("BAD_REQUEST");
    const nulBody = await stack.api("/api/v2/tokens", {
      method: "POST",
      body: '{"templateId":"deposit","name":"a\\u0000","symbol":"N"}',
    });
    expect(nulBody.status).toBe(400);
    expect((await stack.api("/api/v2/transaction-requests?filter[kind][iLike]=token%5C")).status).toBe(200);

    // Bodies over 1 MiB are refused before they are read whole, whether their length is declared or chunked.
    const huge = JSON.stringify({ templateId: "deposit", name: "x".repeat(1024 * 1024), symbol: "H" });
    const tooLarge = await stack.api("/api/v2/tokens", { method: "POST", body: huge });
    expect(tooLarge.status).toBe(413);
    expect((await json(tooLarge)).code).toBe("PAYLOAD_TOO_LARGE");
    const chunks = new Blob([huge]).stream();
    const chunked = await stack.api("/api/v2/tokens", { method: "POST", body: chunks, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);

    const missingRequest = await stack.api(`/api/v2/transaction-requests/${uuidv7()}`);
    expect(missingRequest.status).toBe(404);

    const legacy = await stack.api("/api/token/0x01/holders");
    expect(legacy.status).toBe(400);
    expect(await json(legacy)).toMatchObject({ error: { id: "SVC-0001", status: 400, category: "client" } });

    const badChain = await stack.api("/api/v2/token-templates", { headers: { "x-chain-id": "abc" } });
    expect(badChain.status).toBe(400); // context headers are validated on every route
    const badChainToken = await stack.api(`/api/v2/token/${tokenAddress}`, { headers: { "x-chain-id": "abc" } });
    expect(badChainToken.status).toBe(400);
    expect((await json(badChainToken)).code).toBe("CHAIN_ID_HEADER_INVALID");
    const otherChain = await stack.api(`/api/v2/token/${tokenAddress}`, { headers: { "x-chain-id": "1" } });
    expect(otherChain.status).toBe(400);
    expect((await json(otherChain)).code).toBe("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION");
  });

  it("refuses writes with a read-only key", async () => {
    const key = generateApiKey();
    const client = new pg.Client({
      connectionString: `postgres://platform:platform@127.0.0.1:${stack.env.EMBEDDED_POSTGRES_PORT}/platform`,
    });
    await client.connect();
    const { organizationId } = stack.platform.credentials;
    const { rows } = await client.query("select user_id from platform.memberships where organization_id = $1", [
      organizationId,
    ]);
    await client.query(
      "insert into platform.api_keys (id, organization_id, user_id, name, key_hash, key_prefix, scope) values ($1, $2, $3, 'read', $4, $5, 'read')",
      [uuidv7(), organizationId, rows[0].user_id, key.hash, key.displayPrefix],
    );
    await client.end();
    expect((await stack.api(`/api/v2/token/${tokenAddress}`, { key: key.key })).status).toBe(200);
    const write = await stack.api(`/api/v2/tokens/${tokenAddress}/mint`, {
      key: key.key,
      method: "POST",
      body: JSON.stringify({ recipients: [ALICE], amounts: ["1"] }),
    });
    expect(write.status).toBe(403);
    expect((await json(write)).code).toBe("API_KEY_READ_ONLY");
  });

  it("restarts on the same data, reusing the database, the deployment and the organisation (those phases faster)", async () => {
    const first = stack.platform.timings;
    const key = stack.platform.credentials.apiKey;
    await stack.restart();
    // "Ready" means usable after a restart too: a write sent the moment the restart is ready is accepted.
    const created = await stack.api("/api/v2/tokens", {
      method: "POST",
      body: JSON.stringify({ templateId: "deposit", name: "After Restart", symbol: "AFTR", decimals: 2 }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
    const second = stack.platform.timings;
    expect(stack.platform.firstStart).toBe(false);
    expect(stack.platform.credentials.apiKey).toBe(key);
    // The index re-reads the chain's newest (unsettled) blocks on every start, so the total is dominated by it;
    // what a restart reuses is measurably cheaper.
    expect(second.database).toBeLessThan(first.database);
    expect(second.contracts).toBeLessThan(first.contracts);
    expect(second.organisation).toBeLessThan(first.organisation);
    const token = await json(await stack.api(`/api/v2/token/${tokenAddress}`));
    expect(token.data).toMatchObject({ totalSupply: "150075", holderCount: 2 });
  });
});
