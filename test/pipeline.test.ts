// The transaction pipeline against anvil: many writes of one signer with no nonce gap, reconciliation of a
// dropped transaction and of one whose nonce another transaction took, and the fee bump of a stuck one.
import pg from "pg";
import { type Address, createPublicClient, defineChain, encodeFunctionData, http, parseTransaction } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAbi } from "../abis/Token.ts";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { createConfiguredCustody } from "../host/custody/custody-provider.ts";
import { openDatabases } from "../host/db/database.ts";
import { RECONCILE_TASK } from "../host/mutations/service.ts";
import {
  bootStack,
  createDepositToken,
  json,
  platformDbUrl,
  signerOf,
  type TestStack,
  waitForTerminal,
} from "./support/stack.ts";

const MINTS = 200;
const RECIPIENTS = ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"];

describe("the transaction pipeline", () => {
  let stack: TestStack;
  let db: pg.Client;
  let token: Address;
  let signer: Address;

  const rpc = (method: string, params: unknown[] = []) => stack.rpc(method, params);
  const chain = () =>
    createPublicClient({
      chain: defineChain({
        id: 31337,
        name: "anvil",
        nativeCurrency: { name: "E", symbol: "E", decimals: 18 },
        rpcUrls: { default: { http: [stack.platform.credentials.rpcUrl] } },
      }),
      transport: http(),
    });
  const request = async (id: string) =>
    (await db.query("select * from platform.transaction_requests where id = $1", [id])).rows[0];
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** Runs reconciliation once RECONCILE_AFTER_SECONDS (1 s here) have passed since the request's last update. */
  const reconcileNow = async () => {
    await new Promise((r) => setTimeout(r, 1_100));
    await db.query(`select graphile_worker.add_job('${RECONCILE_TASK}', '{}'::json)`);
  };

  beforeAll(async () => {
    // Short receipt timeout and dropped-transaction window, so reconciliation happens within the test.
    stack = await bootStack({
      RECEIPT_TIMEOUT_SECONDS: "2",
      RECONCILE_AFTER_SECONDS: "1",
      STUCK_TRANSACTION_SECONDS: "4",
      WORKER_CONCURRENCY: "8",
    });
    db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
    token = await createDepositToken(stack, "Pipe", "PIPE");
    signer = await signerOf(db, stack.platform.credentials.organizationId);
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it(`${MINTS} concurrent mints from one signer all complete, with no nonce gap and the supply equal to their sum`, async () => {
    const before = (
      await db.query(
        "select coalesce(max(nonce), -1)::int as n from platform.transaction_requests where from_address = $1",
        [signer],
      )
    ).rows[0].n;
    const amounts = Array.from({ length: MINTS }, (_, i) => BigInt(i + 1));
    const accepted = await Promise.all(
      amounts.map(async (amount, i) => {
        const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
          method: "POST",
          body: JSON.stringify({ recipients: [RECIPIENTS[i % 2]], amounts: [amount.toString()] }),
        });
        expect(res.status).toBe(202);
        return (await json(res)).transactionId as string;
      }),
    );
    await until(
      `${MINTS} mints to complete`,
      async () => {
        const { rows } = await db.query(
          "select count(*)::int as n from platform.transaction_requests where id = any($1) and status = 'COMPLETED'",
          [accepted],
        );
        return rows[0].n === MINTS;
      },
      120_000,
    );
    const nonces = (
      await db.query("select nonce from platform.transaction_requests where id = any($1) order by nonce", [accepted])
    ).rows.map((r) => r.nonce);
    expect(nonces).toEqual(Array.from({ length: MINTS }, (_, i) => before + 1 + i));
    expect(await chain().getTransactionCount({ address: signer })).toBe(before + 1 + MINTS);
    const sum = amounts.reduce((a, b) => a + b, 0n);
    expect(await chain().readContract({ address: token, abi: TokenAbi, functionName: "totalSupply" })).toBe(sum);
    // The newest-mined request's read waits for the index to reach its block, so every mint's (the POST array's
    // last is not necessarily mined last: concurrent POSTs take nonces in arrival order).
    const newest = (
      await db.query(
        "select id from platform.transaction_requests where id = any($1) order by block_number desc, nonce desc limit 1",
        [accepted],
      )
    ).rows[0].id;
    const last = await json(await stack.api(`/api/v2/transaction-requests/${newest}`));
    expect(last.data.status).toBe("COMPLETED");
    expect((await json(await stack.api(`/api/v2/token/${token}`))).data.totalSupply).toBe(sum.toString());
  });

  it("a dropped transaction is reconciled: its receipt times out, then the same bytes are broadcast again and mined", async () => {
    await rpc("evm_setAutomine", [false]);
    let id: string;
    try {
      const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        body: JSON.stringify({ recipients: [RECIPIENTS[0]], amounts: ["1000"] }),
      });
      id = (await json(res)).transactionId;
      await until("the broadcast", async () => (await request(id)).status === "CONFIRMING");
      const sent = await request(id);
      await rpc("anvil_dropTransaction", [sent.transaction_hash]);
      expect(await rpc("eth_getTransactionByHash", [sent.transaction_hash])).toBeNull();
      await until("the receipt timeout", async () => (await request(id)).sub_status === "RECEIPT_TIMEOUT");
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    const timedOut = await request(id);
    await reconcileNow();
    const done = await waitForTerminal(stack, `/v2/transaction-requests/${id}`);
    expect(done).toMatchObject({ status: "COMPLETED", transactionHash: timedOut.transaction_hash });
    expect((await request(id)).attempts).toBe(1);
  });

  it("a stuck transaction (left waiting in the pool) is replaced with a fee bump, and the replacement completes it", async () => {
    await rpc("evm_setAutomine", [false]);
    let id: string;
    let original: { transaction_hash: string; nonce: number; raw_transaction: string };
    try {
      const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        body: JSON.stringify({ recipients: [RECIPIENTS[0]], amounts: ["55"] }),
      });
      id = (await json(res)).transactionId;
      await until("the broadcast", async () => (await request(id)).status === "CONFIRMING");
      original = await request(id);
      // No block is mined (anvil drops, rather than keeps, a write priced under a raised base fee, so a stuck write
      // is one left waiting in the pool).
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await rpc("eth_getTransactionReceipt", [original.transaction_hash])).toBeNull();
      await until("the fee bump", async () => (await request(id)).sub_status === "FEE_BUMPED");
      // The replacement is stored before it is sent: mine only once the node holds it (else the original is mined).
      const replacementHash = (await request(id)).transaction_hash;
      await until(
        "the replacement in the pool",
        async () => (await rpc("eth_getTransactionByHash", [replacementHash])) !== null,
      );
      await rpc("evm_mine");
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    const done = await waitForTerminal(stack, `/v2/transaction-requests/${id}`);
    expect(done.status).toBe("COMPLETED");
    const row = await request(id);
    expect(row.nonce).toBe(original.nonce);
    expect(row.replaced_hashes).toContain(original.transaction_hash);
    expect(done.transactionHash).toBe(row.transaction_hash);
    expect(done.transactionHash).not.toBe(original.transaction_hash);
    // Every hash it was broadcast as, oldest first: the original, then the replacement(s).
    expect(done.transactionHashes[0]).toBe(original.transaction_hash);
    expect(done.transactionHashes.at(-1)).toBe(done.transactionHash);
    const replaced = parseTransaction(original.raw_transaction as `0x${string}`);
    const replacement = parseTransaction(row.raw_transaction);
    expect(replacement.maxFeePerGas! > replaced.maxFeePerGas!).toBe(true);
    expect(replacement.data).toBe(replaced.data);
    // The replaced version was never mined, and its hash still leads to the caller's record.
    expect(await rpc("eth_getTransactionReceipt", [original.transaction_hash])).toBeNull();
    const lookup = await json(await stack.api(`/api/v2/blockchain-transactions/${original.transaction_hash}`));
    expect(lookup.data).toMatchObject({ transactionHash: original.transaction_hash, receipt: null });
  });

  it("when another transaction took the nonce, the write is signed anew (the old bytes can never be mined too)", async () => {
    await rpc("evm_setAutomine", [false]);
    let id: string;
    let first: { transaction_hash: string; nonce: number };
    try {
      const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        body: JSON.stringify({ recipients: [RECIPIENTS[1]], amounts: ["7"] }),
      });
      id = (await json(res)).transactionId;
      await until("the broadcast", async () => (await request(id)).status === "CONFIRMING");
      first = await request(id);
      await rpc("anvil_dropTransaction", [first.transaction_hash]);
      // Someone else signs with the same key and nonce (e.g. a recovered wallet): a plain transfer of 1 wei.
      const config = loadConfig(stack.env);
      const dbs = openDatabases(
        `postgres://platform:platform@127.0.0.1:${stack.env.EMBEDDED_POSTGRES_PORT}/platform`,
        "ledger",
        1,
      );
      const account = await createConfiguredCustody(config, dbs.platform, loadMasterKey(config)).signer(
        stack.platform.credentials.organizationId,
        signer,
      );
      // Every signature is recorded in the custody audit log: the pool stays open until it is signed.
      const foreign = await account.signTransaction({
        chainId: 31337,
        type: "eip1559",
        to: RECIPIENTS[0] as Address,
        value: 1n,
        gas: 21_000n,
        nonce: first.nonce,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 10n ** 9n,
      });
      await dbs.close();
      await rpc("eth_sendRawTransaction", [foreign]);
      await rpc("evm_mine");
      // Either the confirmation sees the nonce taken, or its receipt times out and reconciliation sees it. REQUEUED
      // lasts only until the send run signs it anew, so a new nonce counts too (a poll may miss the sub-status).
      await until("the write to be handed back", async () => {
        const row = await request(id);
        return ["REQUEUED", "RECEIPT_TIMEOUT"].includes(row.sub_status) || row.nonce > first.nonce;
      });
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    await reconcileNow();
    const done = await waitForTerminal(stack, `/v2/transaction-requests/${id}`);
    expect(done.status).toBe("COMPLETED");
    expect(done.transactionHash).not.toBe(first.transaction_hash);
    // Every hash it was broadcast as, oldest first (fee bumps of the first signing while no block came, then anew).
    expect(done.transactionHashes[0]).toBe(first.transaction_hash);
    expect(done.transactionHashes.at(-1)).toBe(done.transactionHash);
    expect(new Set(done.transactionHashes).size).toBe(done.transactionHashes.length);
    const row = await request(id);
    expect(row.nonce).toBeGreaterThan(first.nonce);
    expect(row.attempts).toBe(1);
    expect(
      await chain()
        .getTransactionReceipt({ hash: first.transaction_hash as `0x${string}` })
        .catch(() => null),
    ).toBeNull();
    expect(
      encodeFunctionData({ abi: TokenAbi, functionName: "batchMint", args: [[RECIPIENTS[1] as Address], [7n]] }),
    ).toBe(row.data);
  });
});
