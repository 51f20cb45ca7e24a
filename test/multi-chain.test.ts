// Two chains at once (EMBEDDED_CHAINS=2): the organisation has a system on each, X-Chain-Id selects the chain of every
// read and write, and the same address on both chains holds each chain's own facts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootStack, json, type TestStack, waitForTerminal } from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const PRIMARY = 31337;
const SECOND = 31338;

describe("several chains at once", () => {
  let stack: TestStack;
  const tokens: Record<number, string> = {};
  const onChain = (chainId: number, path: string, init: RequestInit = {}) =>
    stack.api(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), "x-chain-id": String(chainId) },
    });

  beforeAll(async () => {
    stack = await bootStack({
      EMBEDDED_CHAINS: "2",
      ACCOUNT_ABSTRACTION_ENABLED: "true",
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("serves both chains: deployed, indexed and ready, the organisation's system on each", async () => {
    expect(stack.platform.manifests.map((m) => m.chainId)).toEqual([PRIMARY, SECOND]);
    const ready = await json(await fetch(`${stack.platform.baseUrl}/readyz`));
    expect(ready.status).toBe("ready");
    expect(ready.chains.map((c: { chainId: number }) => c.chainId)).toEqual([PRIMARY, SECOND]);
    for (const chainId of [PRIMARY, SECOND]) {
      const directory = await onChain(chainId, "/api/v2/system/directory");
      expect(directory.status).toBe(200);
      // The bundler's JSON-RPC answers for the chain X-Chain-Id names.
      const rpc = await onChain(chainId, "/api/v2/bundler", {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      expect((await json(rpc)).result).toBe(`0x${chainId.toString(16)}`);
    }
  });

  it("creates and mints a token on each chain, each read back through X-Chain-Id only", async () => {
    const minted: Record<number, string> = { [PRIMARY]: "700", [SECOND]: "4200" };
    for (const chainId of [PRIMARY, SECOND]) {
      const created = await onChain(chainId, "/api/v2/tokens", {
        method: "POST",
        headers: { prefer: "wait=60" },
        body: JSON.stringify({ templateId: "deposit", name: `Deposit ${chainId}`, symbol: `D${chainId}` }),
      });
      expect(created.status).toBe(200);
      const answer = (await json(created)).data;
      tokens[chainId] = answer.tokenAddress;
      const request = await json(await onChain(chainId, `/v2/transaction-requests/${answer.transactionId}`));
      expect(request.data).toMatchObject({ kind: "token.create", status: "COMPLETED", chainId });
      const mint = await onChain(chainId, `/api/v2/tokens/${tokens[chainId]}/mint`, {
        method: "POST",
        body: JSON.stringify({ recipients: [ALICE], amounts: [minted[chainId]] }),
      });
      expect(mint.status).toBe(202);
      expect(await waitForTerminal(stack, (await json(mint)).statusUrl)).toMatchObject({
        status: "COMPLETED",
        chainId,
      });
    }

    for (const chainId of [PRIMARY, SECOND]) {
      const res = await onChain(chainId, `/api/v2/tokens/${tokens[chainId]}`);
      expect(res.status).toBe(200);
      expect((await json(res)).data).toMatchObject({ name: `Deposit ${chainId}`, totalSupply: minted[chainId] });
    }
    // Without the header: the organisation's default network, the primary chain.
    expect((await json(await stack.api(`/api/v2/tokens/${tokens[PRIMARY]}`))).data.name).toBe(`Deposit ${PRIMARY}`);

    // The same deployer, root and system on both chains (deterministic deployment) made the same token address on
    // each: the reads above told them apart by X-Chain-Id alone.
    expect(tokens[PRIMARY]).toBe(tokens[SECOND]);

    // Chain-scoped collections: the writes, the participants (assets among them) and the token's event feed.
    for (const chainId of [PRIMARY, SECOND]) {
      const writes = await json(await onChain(chainId, "/api/v2/transaction-requests?page[limit]=200"));
      expect(writes.data.length).toBeGreaterThan(0);
      expect(writes.data.every((w: { chainId: number }) => w.chainId === chainId)).toBe(true);
      const participants = await json(await onChain(chainId, "/api/v2/participants?purpose=transfer&page[limit]=200"));
      const assets = participants.data.filter((p: { kind: string }) => p.kind === "asset");
      expect(assets.map((p: { displayName: string }) => p.displayName)).toEqual([`Deposit ${chainId}`]);
      const events = await json(await onChain(chainId, `/api/v2/tokens/${tokens[chainId]}/events`));
      const mints = events.data.filter((e: { eventName: string }) => e.eventName === "MintCompleted");
      expect(mints).toHaveLength(1);
    }
  });

  it("deploys the participant's smart wallet on each chain at its one counterfactual address, and sends through each chain's pool", async () => {
    const policy = await stack.api("/api/v2/settings/executor-policy", {
      method: "PUT",
      body: JSON.stringify({ accountAbstractionEnabled: true }),
    });
    expect(policy.status).toBe(200);
    const wallets: Record<number, string> = {};
    for (const chainId of [PRIMARY, SECOND]) {
      const created = await onChain(chainId, "/api/v2/smart-wallets", {
        method: "POST",
        headers: { prefer: "wait=90" },
        body: JSON.stringify({}),
      });
      const body = await json(created);
      expect(created.status, JSON.stringify(body)).toBe(200);
      expect(body.data).toMatchObject({ chainId, deployment: { status: "deployed" } });
      wallets[chainId] = body.data.address;
    }
    expect(wallets[PRIMARY]).toBe(wallets[SECOND]);

    const funded = await onChain(SECOND, `/api/v2/tokens/${tokens[SECOND]}/mint`, {
      method: "POST",
      headers: { prefer: "wait=60" },
      body: JSON.stringify({ recipients: [wallets[SECOND]], amounts: ["300"] }),
    });
    expect(funded.status).toBe(200);
    const sent = await onChain(SECOND, `/api/v2/tokens/${tokens[SECOND]}/transfer`, {
      method: "POST",
      headers: { "x-executor": "smart-wallet" },
      body: JSON.stringify({ recipients: [ALICE], amounts: ["100"] }),
    });
    const accepted = await json(sent);
    expect(sent.status, JSON.stringify(accepted)).toBe(202);
    const done = await waitForTerminal(stack, accepted.statusUrl, 90_000);
    expect(done).toMatchObject({ status: "COMPLETED", chainId: SECOND, fromAddress: wallets[SECOND]!.toLowerCase() });
    const token = await json(await onChain(SECOND, `/api/v2/tokens/${tokens[SECOND]}`));
    expect(token.data.totalSupply).toBe("4500");
  });

  it("restarts on both chains' kept state: the second anvil's, its deployment and the organisation's systems", async () => {
    const before = stack.platform.manifests.map((m) => m.systemFactory);
    await stack.restart();
    expect(stack.platform.manifests.map((m) => m.systemFactory)).toEqual(before);
    const token = await json(await onChain(SECOND, `/api/v2/tokens/${tokens[SECOND]}`));
    expect(token.data).toMatchObject({ name: `Deposit ${SECOND}`, totalSupply: "4500" });
  });

  it("refuses a chain the platform does not serve, in the spec's envelope", async () => {
    const res = await onChain(999, "/api/v2/system/directory");
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.code).toBe("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION");
    expect(body.data.chainId).toBe(999);
  });
});
