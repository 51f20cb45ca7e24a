// Cancelling a queued chain write: the send run is held on the signer's nonce row (locked from a test connection)
// while writes queue; a cancelled write never reaches the chain and leaves no nonce gap; a sent one answers 409.
import pg from "pg";
import { type Address, createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAbi } from "../abis/Token.ts";
import { type Operator, operator } from "./support/organizations.ts";
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
const CAROL = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const DAVE = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

describe("cancelling a queued transaction request", () => {
  let stack: TestStack;
  let db: pg.Client;
  let ops: Operator;
  let token: Address;
  let signer: string;
  let supplyKey: string;
  let otherOrgKey: string;

  const mint = (recipient: string, amount: string, key: string, apiKey?: string) =>
    stack.api(`/api/v2/tokens/${token}/mint`, {
      method: "POST",
      headers: { "idempotency-key": key },
      body: JSON.stringify({ recipients: [recipient], amounts: [amount] }),
      ...(apiKey ? { key: apiKey } : {}),
    });
  const cancel = (transactionId: string, apiKey?: string) =>
    stack.api(`/api/v2/transaction-requests/${transactionId}/cancel`, {
      method: "POST",
      ...(apiKey ? { key: apiKey } : {}),
    });
  const row = async (id: string) =>
    (
      await db.query(
        "select status, nonce, raw_transaction, transaction_hash from platform.transaction_requests where id = $1",
        [id],
      )
    ).rows[0];
  const balanceOf = async (account: string) =>
    createPublicClient({ chain: stackChain(stack), transport: http() }).readContract({
      address: token,
      abi: TokenAbi,
      functionName: "balanceOf",
      args: [account as Address],
    });

  beforeAll(async () => {
    stack = await bootStack();
    db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
    ops = operator(stack);
    const { organizationId } = stack.platform.credentials;
    token = await createDepositToken(stack, "Cancel", "CNCL");
    signer = await signerOf(db, organizationId);
    supplyKey = await ops.keyFor(organizationId, "supplyManager");
    otherOrgKey = await ops.keyFor(await ops.organization("Other organisation"), "owner");
  }, 180_000);
  afterAll(async () => {
    await db?.end();
    await ops?.close();
    await stack?.stop();
  });

  it("a write cancelled while the send run waits to sign never reaches the chain and takes no nonce", async () => {
    // Hold the signer's nonce row: a send run reads the queued writes, estimates them, then waits for this lock
    // before it signs anything, so every write below stays QUEUED without bytes until the lock is released.
    const holder = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await holder.connect();
    const chainId = stack.platform.credentials.chainId;
    await holder.query("begin");
    const held = await holder.query(
      "select next_nonce from platform.signer_nonces where chain_id = $1 and address = $2 for update",
      [chainId, signer],
    );
    expect(held.rows).toHaveLength(1); // the token's creation reserved a nonce
    let released = false;
    try {
      const ids: string[] = [];
      for (const [recipient, amount, key] of [
        [ALICE, "11", "cancel-a"],
        [BOB, "22", "cancel-b"],
        [CAROL, "33", "cancel-c"],
      ]) {
        const res = await mint(recipient, amount, key);
        expect(res.status).toBe(202);
        ids.push((await json(res)).transactionId);
      }
      // The supply manager's own write, its caller waiting (Prefer: wait) for the outcome.
      const waiting = stack.api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        headers: { "idempotency-key": "cancel-d", prefer: "wait=60" },
        body: JSON.stringify({ recipients: [DAVE], amounts: ["44"] }),
        key: supplyKey,
      });
      let ownId: string | undefined;
      while (!ownId) {
        const found = await db.query("select id from platform.transaction_requests where idempotency_key = 'cancel-d'");
        ownId = found.rows[0]?.id;
        if (!ownId) await new Promise((r) => setTimeout(r, 50));
      }
      const [first, second, third] = ids as [string, string, string];

      // The send run has read the first write (the queue's oldest) and now waits on the lock to sign it.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const waiting = await db.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%signer_nonces%'",
        );
        if (waiting.rows[0].n > 0) break;
        if (Date.now() > deadline) throw new Error("the send run never waited on the signer's nonce row");
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const id of [...ids, ownId])
        expect(await row(id)).toMatchObject({ status: "QUEUED", raw_transaction: null });

      // Who may cancel: another organisation does not see the request; a supply manager may not cancel the
      // owner's write but may cancel their own; the owner (an admin role) cancels any.
      expect((await cancel(first, otherOrgKey)).status).toBe(404);
      const forbidden = await cancel(first, supplyKey);
      expect(forbidden.status).toBe(403);
      expect((await json(forbidden)).code).toBe("USER_NOT_AUTHORIZED");
      expect((await cancel(ownId, supplyKey)).status).toBe(200);
      // The waiting caller learns it as a retry with the key would.
      const waited = await waiting;
      expect(waited.status).toBe(409);
      expect((await json(waited)).code).toBe("IDEMPOTENCY_REQUEST_CANCELLED");

      const cancelled = await cancel(first);
      expect(cancelled.status).toBe(200);
      const body = await json(cancelled);
      expect(body).toMatchObject({
        data: { transactionId: first, status: "CANCELLED", transactionHash: null },
        links: { self: `/v2/transaction-requests/${first}` },
      });
      // Cancelling again answers the cancelled request again; a retry with its key is the spec's 409.
      expect((await json(await cancel(first))).data.status).toBe("CANCELLED");
      const retry = await mint(ALICE, "11", "cancel-a");
      expect(retry.status).toBe(409);
      expect((await json(retry)).code).toBe("IDEMPOTENCY_REQUEST_CANCELLED");

      await holder.query("rollback");
      released = true;
      for (const id of [second, third])
        expect((await waitForTerminal(stack, `/v2/transaction-requests/${id}`)).status).toBe("COMPLETED");

      for (const id of [first, ownId]) {
        expect(await row(id)).toMatchObject({
          status: "CANCELLED",
          nonce: null,
          raw_transaction: null,
          transaction_hash: null,
        });
        const read = await json(await stack.api(`/api/v2/transaction-requests/${id}`));
        expect(read.data).toMatchObject({ status: "CANCELLED", transactionHash: null });
      }
      // The cancelled writes took no nonce: the next two follow the last one the signer had used.
      const [b, c] = [await row(second), await row(third)];
      expect(b.nonce).toBe(held.rows[0].next_nonce);
      expect(c.nonce).toBe(b.nonce + 1);
      expect(await balanceOf(ALICE)).toBe(0n);
      expect(await balanceOf(DAVE)).toBe(0n);
      expect(await balanceOf(BOB)).toBe(22n);
      expect(await balanceOf(CAROL)).toBe(33n);
    } finally {
      if (!released) await holder.query("rollback");
      await holder.end();
    }

    // No gap on the chain: the signer's transaction count is the number of its writes that were mined, whose
    // receipts carry the nonces 0..n-1 (the nonce of each mined transaction as the chain saw it).
    const mined = await db.query(
      "select nonce, transaction_hash from platform.transaction_requests where from_address = $1 and status = 'COMPLETED' order by nonce",
      [signer],
    );
    const count = Number(await stack.rpc("eth_getTransactionCount", [signer, "latest"]));
    expect(count).toBe(mined.rows.length);
    for (const [i, request] of mined.rows.entries()) {
      expect(request.nonce).toBe(i);
      const tx = (await stack.rpc("eth_getTransactionByHash", [request.transaction_hash])) as { nonce: Hex };
      expect(Number(tx.nonce)).toBe(i);
      expect(await stack.rpc("eth_getTransactionReceipt", [request.transaction_hash])).toMatchObject({ status: "0x1" });
    }
  });

  it("a write already broadcast, mined or unknown answers 409 TRANSACTION_REQUEST_NOT_CANCELLABLE with its status", async () => {
    await stack.rpc("evm_setAutomine", [false]);
    let id: string;
    try {
      const res = await mint(BOB, "5", "cancel-broadcast");
      expect(res.status).toBe(202);
      id = (await json(res)).transactionId;
      const deadline = Date.now() + 30_000;
      while ((await row(id)).status !== "CONFIRMING") {
        if (Date.now() > deadline) throw new Error("the write was never broadcast");
        await new Promise((r) => setTimeout(r, 50));
      }
      const refused = await cancel(id);
      expect(refused.status).toBe(409);
      expect(await json(refused)).toMatchObject({
        code: "TRANSACTION_REQUEST_NOT_CANCELLABLE",
        data: { id: "SVC-9545", transactionId: id, status: "CONFIRMING" },
      });
    } finally {
      await stack.rpc("evm_setAutomine", [true]);
      await stack.rpc("evm_mine");
    }
    expect((await waitForTerminal(stack, `/v2/transaction-requests/${id}`)).status).toBe("COMPLETED");
    const completed = await cancel(id);
    expect(completed.status).toBe(409);
    expect((await json(completed)).data).toMatchObject({ status: "COMPLETED" });
    expect(await balanceOf(BOB)).toBe(27n);

    expect((await cancel("01JUNKNOWN")).status).toBe(404);
  });

  it("is in the OpenAPI document", async () => {
    const doc = await json(await stack.api("/api/v2/spec.json"));
    expect(doc.paths["/api/v2/transaction-requests/{transactionId}/cancel"]?.post).toBeDefined();
  });
});
