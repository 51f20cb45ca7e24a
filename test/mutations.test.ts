// Chain writes exactly once, as the caller prefers: idempotency keys, Prefer, signer selection, receipts.
import pg from "pg";
import { createPublicClient, createWalletClient, defineChain, encodeFunctionData, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAbi } from "../abis/Token.ts";
import { ANVIL_FUNDER_KEY } from "../scripts/infra/anvil.ts";
import { waitFor } from "../scripts/infra/child-process.ts";
import {
  bootStack,
  createDepositToken,
  json,
  platformDbUrl,
  signerOf,
  stackChain,
  type TestStack,
  waitForTerminal,
} from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

describe("chain writes: idempotency, Prefer and signer selection", () => {
  let stack: TestStack;
  let db: pg.Client;
  let token: string;
  let signer: string;

  const mint = (amount: string, headers: Record<string, string> = {}, extra: object = {}) =>
    stack.api(`/api/v2/tokens/${token}/mint`, {
      method: "POST",
      headers,
      body: JSON.stringify({ recipients: [ALICE], amounts: [amount], ...extra }),
    });
  const rpc = (method: string, params: unknown[] = []) => stack.rpc(method, params);
  const requestsWithKey = async (key: string) =>
    (
      await db.query(
        "select id, status, transaction_hash from platform.transaction_requests where idempotency_key = $1",
        [key],
      )
    ).rows;

  beforeAll(async () => {
    stack = await bootStack();
    db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
    token = await createDepositToken(stack, "Once", "ONCE");
    signer = await signerOf(db, stack.platform.credentials.organizationId);
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it("Prefer: wait=N answers 200 with the completed-mutation envelope, X-Transaction-Hash and the index caught up", async () => {
    const res = await mint("100", { prefer: "wait=30", "idempotency-key": "wait-1" });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      data: { kind: "token.mint", status: "COMPLETED" },
      meta: { txHashes: [expect.stringMatching(/^0x[0-9a-f]{64}$/)] },
    });
    expect(body.links.self).toBe(`/v2/transaction-requests/${body.data.transactionId}`);
    expect(res.headers.get("x-transaction-hash")).toBe(body.meta.txHashes[0]);
    expect(res.headers.get("preference-applied")).toBe("wait=30");
    expect(res.headers.get("idempotency-key")).toBe("wait-1");
    const holders = await json(await stack.api(`/api/token/${token}/holders`));
    expect(holders.token.balances[0]).toMatchObject({ account: { id: ALICE.toLowerCase() }, value: "1" });
  });

  it("a retry with the same key attaches to the first request and never sends twice; a completed one returns the recorded result", async () => {
    const first = await mint("7", { "idempotency-key": "retry-1" });
    expect(first.status).toBe(202);
    const accepted = await json(first);
    const again = await json(await mint("7", { "idempotency-key": "retry-1" }));
    expect(again.transactionId ?? again.data?.transactionId).toBe(accepted.transactionId);
    await waitForTerminal(stack, accepted.statusUrl);
    // The same body again answers the recorded result (its calldata is the same).
    const replay = await mint("7", { "idempotency-key": "retry-1" });
    expect(replay.status).toBe(200);
    expect((await json(replay)).data).toMatchObject({ transactionId: accepted.transactionId, status: "COMPLETED" });
    expect(await requestsWithKey("retry-1")).toHaveLength(1);
    const sent = await db.query(
      "select count(distinct transaction_hash)::int as n from platform.transaction_requests where idempotency_key = 'retry-1'",
    );
    expect(sent.rows[0].n).toBe(1);
  });

  it("a key reused for another token, amount or recipient is 409 IDEMPOTENCY_KEY_REUSED and writes nothing", async () => {
    const other = await createDepositToken(stack, "Other", "OTHR");
    const mintOn = (target: string, recipient: string, amount: string) =>
      stack.api(`/api/v2/tokens/${target}/mint`, {
        method: "POST",
        headers: { "idempotency-key": "reuse-1", prefer: "wait=30" },
        body: JSON.stringify({ recipients: [recipient], amounts: [amount] }),
      });
    const first = await mintOn(token, ALICE, "12");
    expect(first.status).toBe(200);
    const done = await json(first);
    for (const [target, recipient, amount] of [
      [other, ALICE, "12"],
      [token, ALICE, "13"],
      [token, BOB, "12"],
    ]) {
      const reused = await mintOn(target, recipient, amount);
      expect(reused.status).toBe(409);
      expect(await json(reused)).toMatchObject({
        code: "IDEMPOTENCY_KEY_REUSED",
        data: { transactionId: done.data.transactionId, status: "COMPLETED" },
      });
    }
    const chain = createPublicClient({ chain: stackChain(stack), transport: http() });
    const supply = (address: string) =>
      chain.readContract({ address: address as `0x${string}`, abi: TokenAbi, functionName: "totalSupply" });
    expect(await supply(other)).toBe(0n);
    // The same body again (the address cased otherwise) is a genuine retry: the first result.
    const again = await mintOn(token.toLowerCase(), ALICE.toLowerCase(), "12");
    expect(again.status).toBe(200);
    expect((await json(again)).data).toMatchObject({ transactionId: done.data.transactionId, status: "COMPLETED" });
    expect(await requestsWithKey("reuse-1")).toHaveLength(1);
  });

  it("token creation keeps the spec's rule: the token payload is not the deduplication boundary", async () => {
    const create = (name: string) =>
      stack.api("/api/v2/tokens", {
        method: "POST",
        headers: { "idempotency-key": "create-1", prefer: "wait=30" },
        body: JSON.stringify({ templateId: "deposit", name, symbol: "KEY" }),
      });
    const first = await json(await create("Keyed"));
    const again = await create("Keyed under another name");
    expect(again.status).toBe(200);
    expect((await json(again)).data).toMatchObject({
      transactionId: first.data.transactionId,
      tokenAddress: first.data.tokenAddress,
    });
  });

  it("concurrent retries with one key queue one request", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => mint("3", { "idempotency-key": "race-1" })));
    const ids = new Set(
      await Promise.all(
        answers.map(async (r) => {
          const b = await json(r);
          return b.transactionId ?? b.data?.transactionId;
        }),
      ),
    );
    expect(ids.size).toBe(1);
    expect(await requestsWithKey("race-1")).toHaveLength(1);
  });

  it("echoes a server-generated UUIDv7 when the request had no key", async () => {
    const res = await mint("1");
    expect(res.status).toBe(202);
    expect(res.headers.get("idempotency-key")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("answers every 409 case of the idempotency table", async () => {
    const setUp = async (key: string, status?: string, createdAt?: string) => {
      const res = await mint("2", { "idempotency-key": key, prefer: "wait=30" });
      expect(res.status).toBe(200);
      if (status)
        await db.query("update platform.transaction_requests set status = $2 where idempotency_key = $1", [
          key,
          status,
        ]);
      if (createdAt)
        await db.query("update platform.transaction_requests set created_at = $2 where idempotency_key = $1", [
          key,
          createdAt,
        ]);
    };
    const codeOf = async (res: Response) => {
      expect(res.status).toBe(409);
      return (await json(res)).code;
    };
    await setUp("expired-1", undefined, new Date(Date.now() - 25 * 3600_000).toISOString());
    expect(await codeOf(await mint("2", { "idempotency-key": "expired-1" }))).toBe("IDEMPOTENCY_KEY_EXPIRED");
    await setUp("cancelled-1", "CANCELLED");
    expect(await codeOf(await mint("2", { "idempotency-key": "cancelled-1" }))).toBe("IDEMPOTENCY_REQUEST_CANCELLED");
    await setUp("selection-1");
    expect(await codeOf(await mint("2", { "idempotency-key": "selection-1" }, { forceEoa: true }))).toBe(
      "IDEMPOTENCY_WALLET_SELECTION_MISMATCH",
    );
    await setUp("dead-1", "DEAD_LETTER");
    expect(await codeOf(await mint("2", { "idempotency-key": "dead-1" }))).toBe("IDEMPOTENCY_REQUEST_UNRECOVERABLE");
    await setUp("reused-1");
    const create = await stack.api("/api/v2/tokens", {
      method: "POST",
      headers: { "idempotency-key": "reused-1" },
      body: JSON.stringify({ templateId: "deposit", name: "Other", symbol: "OTH" }),
    });
    expect(await codeOf(create)).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("respond-async degrades to 202 with Preference-Applied; a passed deadline is 504 REQUEST_DEADLINE_EXCEEDED with Retry-After", async () => {
    await rpc("evm_setAutomine", [false]);
    try {
      const async = await mint("5", { prefer: "respond-async, wait=5" });
      expect(async.status).toBe(202);
      expect(async.headers.get("preference-applied")).toBe("respond-async, wait=5");
      const sync = await mint("5", { prefer: "wait=5" });
      expect(sync.status).toBe(504);
      expect(Number(sync.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = await json(sync);
      expect(body).toMatchObject({
        code: "REQUEST_DEADLINE_EXCEEDED",
        data: { id: "SVC-9532", transactionId: expect.any(String) },
      });
      // Writes of one signer run in order: mining lets the first complete, then the second is sent and mined.
      await rpc("evm_setAutomine", [true]);
      await rpc("evm_mine");
      expect((await waitForTerminal(stack, body.data.statusUrl)).status).toBe("COMPLETED");
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    const bad = await mint("5", { prefer: "wait=100" });
    expect(bad.status).toBe(400);
  });

  it("X-Transaction-Speed: slow < standard < fast in the priority fee on chain, kept on the request; another value is 400, nothing queued", async () => {
    const priorityFee: Record<string, bigint> = {};
    for (const speed of ["slow", "standard", "fast"]) {
      const res = await mint("3", { prefer: "wait=30", "x-transaction-speed": speed });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      const tx = (await rpc("eth_getTransactionByHash", [body.meta.txHashes[0]])) as { maxPriorityFeePerGas: string };
      priorityFee[speed] = BigInt(tx.maxPriorityFeePerGas);
      const request = await json(await stack.api(`/api/v2/transaction-requests/${body.data.transactionId}`));
      expect(request.data.speed).toBe(speed);
    }
    expect(priorityFee.slow).toBeLessThan(priorityFee.standard);
    expect(priorityFee.standard).toBeLessThan(priorityFee.fast);

    const count = async () =>
      (await db.query("select count(*)::int as n from platform.transaction_requests")).rows[0].n;
    const before = await count();
    const turbo = await mint("3", { "x-transaction-speed": "turbo", "idempotency-key": "turbo-1" });
    const refusal = await json(turbo);
    expect([turbo.status, refusal.code, refusal.data.issues[0].path]).toEqual([
      400,
      "BAD_REQUEST",
      "X-Transaction-Speed",
    ]);
    expect(await count()).toBe(before);
  });

  it("a write dead-lettered while the caller waits answers its terminal error at once, not 504", async () => {
    await rpc("evm_setAutomine", [false]);
    try {
      const waiting = mint("6", { prefer: "wait=20", "idempotency-key": "dead-while-waiting" });
      await waitFor("the request", async () => (await requestsWithKey("dead-while-waiting")).length > 0, 10_000, 20);
      const [row] = await requestsWithKey("dead-while-waiting");
      const started = Date.now();
      // What reconciliation does when no receipt comes within its budget (host/worker/reconcile.ts).
      await db.query("update platform.transaction_requests set status = 'DEAD_LETTER' where id = $1", [row.id]);
      const res = await waiting;
      expect(Date.now() - started).toBeLessThan(3_000); // woken by the row's change, not the deadline
      expect(res.status).toBe(409);
      expect((await json(res)).data).toMatchObject({
        id: "SVC-9544",
        transactionId: row.id,
        status: "DEAD_LETTER",
      });
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  });

  it("a refusal by the contract is FAILED with contractError (422 CONTRACT_ERROR under Prefer: wait), nothing sent", async () => {
    const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
      method: "POST",
      headers: { prefer: "wait=30" },
      body: JSON.stringify({ recipients: ["0x0000000000000000000000000000000000000000"], amounts: ["1"] }),
    });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body).toMatchObject({ code: "CONTRACT_ERROR", data: { contractError: { id: "ERC20InvalidReceiver" } } });
    const request = await json(await stack.api(body.data.statusUrl));
    expect(request.data).toMatchObject({
      status: "FAILED",
      transactionHash: null,
      contractError: { id: "ERC20InvalidReceiver" },
    });
  });

  it("signer selection: the spec's custody errors, before anything is queued", async () => {
    const code = async (res: Response) => (await json(res)).code;
    expect(await code(await mint("1", {}, { accountWalletId: "0x0000000000000000000000000000000000000001" }))).toBe(
      "CUSTODY_ACCOUNT_SELECTION_INVALID",
    );
    expect(await code(await mint("1", {}, { smartWalletAddress: ALICE, forceEoa: true }))).toBe(
      "svc.runtime.INVALID_REQUEST_CUSTODY_ACCOUNT",
    );
    expect(await code(await mint("1", {}, { smartWalletAddress: ALICE }))).toBe("REQUEST_EXECUTOR_UNAVAILABLE");
    const ok = await mint("1", { prefer: "wait=30" }, { accountWalletId: signer, forceEoa: true });
    expect(ok.status).toBe(200);
    await db.query("update platform.wallets set derivation_path = 'm/0' where address = $1", [signer]);
    try {
      expect(await code(await mint("1"))).toBe("PRIMARY_CUSTODY_ACCOUNT_REQUIRED");
    } finally {
      await db.query("update platform.wallets set derivation_path = $2 where address = $1", [
        signer,
        "m/44'/60'/0'/0/0",
      ]);
    }
  });

  it("looks up receipts: success, a decoded revert, a caller-visible request without one, and not found", async () => {
    const done = await json(await mint("9", { prefer: "wait=30" }));
    const hash = done.meta.txHashes[0];
    const ok = await json(await stack.api(`/api/v2/blockchain-transactions/${hash}`));
    expect(ok.data).toMatchObject({
      transactionHash: hash,
      from: signer,
      receipt: { status: "Success", revertReason: null, blockNumber: done.data.blockNumber },
    });

    // A transaction the chain mined but reverted: anvil's funder is not a supply manager of the token.
    const chain = defineChain({
      id: 31337,
      name: "anvil",
      nativeCurrency: { name: "E", symbol: "E", decimals: 18 },
      rpcUrls: { default: { http: [stack.platform.credentials.rpcUrl] } },
    });
    const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_FUNDER_KEY), chain, transport: http() });
    const reverted = await wallet.sendTransaction({
      to: token as `0x${string}`,
      gas: 200_000n,
      data: encodeFunctionData({ abi: TokenAbi, functionName: "mint", args: [ALICE, 1n] }),
    });
    await createPublicClient({ chain, transport: http() }).waitForTransactionReceipt({ hash: reverted });
    const failed = await json(await stack.api(`/api/v2/blockchain-transactions/${reverted}`));
    expect(failed.data.receipt).toMatchObject({
      status: "Reverted",
      revertReasonDecoded: expect.stringMatching(/^AccessControlUnauthorizedAccount\(/),
    });

    await db.query(
      "update platform.transaction_requests set transaction_hash = $1 where id = (select id from platform.transaction_requests where transaction_hash is null limit 1)",
      [`0x${"ab".repeat(32)}`],
    );
    const visible = await json(await stack.api(`/api/v2/blockchain-transactions/0x${"ab".repeat(32)}`));
    expect(visible.data).toMatchObject({ receipt: null });
    const missing = await stack.api(`/api/v2/blockchain-transactions/0x${"cd".repeat(32)}`);
    expect(missing.status).toBe(404);
  });
});
