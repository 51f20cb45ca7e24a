// Webhook events read from the index, end to end against the real chain: a mint is told pending when broadcast,
// provisional when indexed and final once deeper than WEBHOOK_REORG_DEPTH, in that order; a transfer final once
// deeper than the depth (carrying the client's idempotency key), a transfer that a reorg moves to another block is
// final once, a mint a reorg removes is retracted (then, sent again, told again and final once), a final mint whose
// block a reorg deeper than the depth replaces is recalled; every payload validates against its published schema;
// an endpoint filtered to one token receives nothing of another; token.transfer.final waits for a counter-signed
// receipt only at an endpoint that asks for receipts (by default a 2xx is a delivery).
import { Ajv2020 } from "ajv/dist/2020.js";
import { Webhook } from "standardwebhooks";
import { encodeFunctionData, getAddress, keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SystemAccessManagerAbi } from "../abis/SystemAccessManager.ts";
import { openDatabases } from "../host/db/database.ts";
import { settleIndex } from "../host/events/index-lifecycle.ts";
import { createLogger } from "../host/logger.ts";
import type { IndexedObservation } from "../host/plugin.ts";
import { ALICE, BOB, CAROL } from "./support/api-flows.ts";
import { AFTER_REORG_MS } from "./support/index-vs-chain.ts";
import { operator } from "./support/organizations.ts";
import { bootStack, createDepositToken, json, platformDbUrl, type TestStack } from "./support/stack.ts";
import { type Received, type Receiver, webhookReceiver } from "./support/webhook-receiver.ts";

const DEPTH = 3;
const ISSUANCE = "asset.issuance.provisional";
const FINAL = "token.transfer.final";
const ROLE_REVOKED = "access-control.role-revoked.provisional";
const poll = { timeout: 60_000, interval: 100 };
/** Ponder may first wait out its retries of a block the reorg removed (index-vs-chain.ts). */
const afterReorg = { ...poll, timeout: AFTER_REORG_MS };
const OTHER_TOKEN = "0x000000000000000000000000000000000000dEaD";

interface Envelope {
  evt_id: string;
  type: string;
  version: number;
  lifecycle_state: string;
  retracted_evt_id?: string;
  request?: { idempotency_key: string };
  related: Record<string, string>;
  payload: Record<string, unknown>;
}

describe("webhook events from the index", () => {
  let stack: TestStack;
  let receiver: Receiver;
  let token: string;
  let endpoint: { id: string; secret: string };
  const validators = new Map<string, (payload: unknown) => boolean>();

  const headersOf = (r: Received) => ({
    "webhook-id": String(r.headers["webhook-id"]),
    "webhook-timestamp": String(r.headers["webhook-timestamp"]),
    "webhook-signature": String(r.headers["webhook-signature"]),
  });
  /** Every delivery to the endpoint, verified with standardwebhooks and checked against its published schema. */
  const delivered = (path = "/events", secret = endpoint.secret): Envelope[] =>
    receiver.received(path).map((r) => {
      const envelope = new Webhook(secret).verify(r.body, headersOf(r)) as Envelope;
      expect(envelope.evt_id).toBe(r.headers["webhook-id"]);
      expect(validators.get(envelope.type)?.(envelope.payload), JSON.stringify(envelope.payload)).toBe(true);
      return envelope;
    });
  const of = (type: string, transactionHash: string, state?: string) =>
    delivered().filter(
      (e) =>
        e.type === type &&
        e.payload.transactionHash === transactionHash &&
        (state === undefined || e.lifecycle_state === state),
    );
  const distinct = (events: Envelope[]) => [...new Map(events.map((e) => [e.evt_id, e])).values()];
  /** The states told of a mint's issuance, in the order they arrived. */
  const statesOf = (mint: string) => distinct(of(ISSUANCE, mint)).map((e) => e.lifecycle_state);
  const createEndpoint = async (body: object) => {
    const res = await stack.api("/api/v2/webhooks/endpoints", { method: "POST", body: JSON.stringify(body) });
    const answer = await json(res);
    expect(res.status, JSON.stringify(answer)).toBe(201);
    return answer.data;
  };
  let filtered: { id: string; secret: string };

  /** A token write under an idempotency key, completed; its transaction hash. */
  const write = async (operation: string, body: object, key: string) => {
    const res = await stack.api(`/api/v2/tokens/${token}/${operation}`, {
      method: "POST",
      headers: { prefer: "wait=30", "idempotency-key": key },
      body: JSON.stringify(body),
    });
    const answer = await json(res);
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.data.status).toBe("COMPLETED");
    return answer.meta.txHashes[0] as string;
  };
  const mine = (blocks: number) => stack.rpc("anvil_mine", [`0x${blocks.toString(16)}`]);
  const blockOf = async (hash: string) =>
    Number(BigInt(((await stack.rpc("eth_getTransactionReceipt", [hash])) as { blockNumber: string }).blockNumber));

  beforeAll(async () => {
    stack = await bootStack({ WEBHOOK_REORG_DEPTH: `31337:${DEPTH}`, WEBHOOK_RETRY_BASE_SECONDS: "0.5" });
    receiver = await webhookReceiver();
    token = await createDepositToken(stack, "Hooked Deposit", "HOOK");
    endpoint = await createEndpoint({
      url: receiver.url("/events"),
      eventTypes: [ISSUANCE, FINAL, ROLE_REVOKED],
      receiptRequired: true,
    });
    // Two endpoints with the defaults (no receipts), one filtered to the token, one to another token.
    filtered = await createEndpoint({
      url: receiver.url("/filtered"),
      eventTypes: [ISSUANCE, FINAL],
      filters: { tokenAddress: [token.toLowerCase()] },
    });
    expect(filtered).toMatchObject({ filters: { tokenAddress: [token] }, receiptRequired: false });
    const other = await createEndpoint({ url: receiver.url("/other"), eventTypes: [FINAL] });
    const updated = await stack.api(`/api/v2/webhooks/endpoints/${other.id}`, {
      method: "PATCH",
      body: JSON.stringify({
        eventTypes: [ISSUANCE, FINAL],
        filters: { tokenAddress: [OTHER_TOKEN], chainId: [31337] },
      }),
    });
    expect((await json(updated)).data).toMatchObject({
      filters: { tokenAddress: [OTHER_TOKEN], chainId: [31337] },
      receiptRequired: false,
    });
    const catalogue = await json(await stack.api("/api/v2/webhooks/event-types"));
    const ajv = new Ajv2020({ strict: false });
    for (const entry of catalogue.data) validators.set(entry.type, ajv.compile(entry.payloadSchema));
    expect(catalogue.data.find((t: { type: string }) => t.type === FINAL)).toMatchObject({
      lifecycle: "final",
      receiptRequired: true,
    });
    expect(catalogue.data.find((t: { type: string }) => t.type === ISSUANCE)).toMatchObject({
      lifecycle: "provisional",
      receiptRequired: false,
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it("tells a mint pending, provisional, then final, and a transfer final once deeper than the reorg depth, with the client's key", async () => {
    const signer = (await json(await stack.api("/api/user/assets"))).wallets[0] as string;
    const mint = await write("mint", { recipients: [signer], amounts: ["1000"] }, "lifecycle-mint-1");
    await expect.poll(() => of(ISSUANCE, mint, "provisional").length, poll).toBeGreaterThan(0);
    const [pending] = of(ISSUANCE, mint, "pending");
    const [issued] = of(ISSUANCE, mint, "provisional");
    // Told at the broadcast with the write's hash and the same payload, before the mined one.
    expect(pending).toMatchObject({ request: { idempotency_key: "lifecycle-mint-1" }, payload: issued.payload });
    expect(statesOf(mint)).toEqual(["pending", "provisional"]);
    expect(issued).toMatchObject({
      type: ISSUANCE,
      version: 1,
      lifecycle_state: "provisional",
      request: { idempotency_key: "lifecycle-mint-1" },
      related: { idxr_asset: token, idxr_token: token },
      payload: { assetAddress: token, chainId: 31337, quantity: "1000", transactionHash: mint },
    });
    expect((issued.payload.issuer as string).toLowerCase()).toBe(signer.toLowerCase());

    const transfer = await write("transfer", { recipients: [ALICE], amounts: ["250"] }, "lifecycle-transfer-1");
    const block = await blockOf(transfer);
    // Inside the depth: nothing final yet.
    await new Promise((r) => setTimeout(r, 1500));
    expect(of(FINAL, transfer)).toHaveLength(0);
    await mine(DEPTH);
    await expect.poll(() => of(FINAL, transfer).length, poll).toBeGreaterThan(0);
    const [final] = of(FINAL, transfer);
    expect(final).toMatchObject({
      lifecycle_state: "final",
      request: { idempotency_key: "lifecycle-transfer-1" },
      payload: {
        tokenAddress: token,
        chainId: 31337,
        to: ALICE,
        amount: "250",
        transactionHash: transfer,
        blockNumber: block,
      },
    });
    expect((final.payload.from as string).toLowerCase()).toBe(signer.toLowerCase());
    expect(final.payload.logIndex).toEqual(expect.any(Number));
    // The mint moved units too: final from the zero address.
    await expect.poll(() => distinct(of(FINAL, mint)).length, poll).toBe(1);
    expect(of(FINAL, mint)[0].payload.from).toBe("0x0000000000000000000000000000000000000000");

    // The delivery is linked to the request that caused it.
    const deliveries = await json(
      await stack.api(
        `/api/v2/webhooks/endpoints/${endpoint.id}/deliveries?filter[idempotencyKey]=lifecycle-transfer-1`,
      ),
    );
    expect(deliveries.data).toHaveLength(1);
    expect(deliveries.data[0]).toMatchObject({
      evtId: final.evt_id,
      transactionHash: transfer,
      lifecycleState: "final",
    });
    expect(deliveries.data[0].requestId).toEqual(expect.any(String));

    // Past the depth the mint's issuance is final: each state once, in order, nothing retracted.
    await expect.poll(() => statesOf(mint), poll).toEqual(["pending", "provisional", "final"]);
    expect(of(ISSUANCE, mint, "final")[0].payload).toEqual(issued.payload);

    // The endpoint filtered to the token got its events, each once and without a receipt (the default); the one
    // filtered to another token got nothing.
    const toFiltered = () =>
      delivered("/filtered", filtered.secret).filter((e) => e.payload.transactionHash === transfer);
    await expect.poll(() => toFiltered().length, poll).toBe(1);
    expect(toFiltered()[0]).toMatchObject({ type: FINAL, lifecycle_state: "final", evt_id: final.evt_id });
    const filteredDeliveries = await json(
      await stack.api(`/api/v2/webhooks/endpoints/${filtered.id}/deliveries?filter[evtId]=${final.evt_id}`),
    );
    expect(filteredDeliveries.data[0].status).toBe("succeeded");
    expect(delivered("/filtered", filtered.secret).map((e) => e.lifecycle_state)).toContain("pending");
    expect(receiver.received("/other")).toHaveLength(0);
    // More blocks, more time: still one final event for the transfer (redeliveries carry the same evt_id).
    await mine(DEPTH);
    await new Promise((r) => setTimeout(r, 1500));
    expect(distinct(of(FINAL, transfer))).toHaveLength(1);
  });

  it("redelivers token.transfer.final until the subscriber counter-signs a receipt", async () => {
    const transfer = await write("transfer", { recipients: [BOB], amounts: ["5"] }, "lifecycle-receipt-1");
    await mine(DEPTH);
    await expect.poll(() => of(FINAL, transfer).length, poll).toBeGreaterThanOrEqual(2);
    const events = of(FINAL, transfer);
    expect(distinct(events)).toHaveLength(1);
    const evtId = events[0].evt_id;
    const list = async () =>
      (await json(await stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}/deliveries?filter[evtId]=${evtId}`)))
        .data[0];
    expect((await list()).status).toBe("awaiting-receipt");

    const submit = (body: object, signer = new Webhook(endpoint.secret), at = new Date()) => {
      const text = JSON.stringify(body);
      const id = `rcpt_${evtId}`;
      return stack.api("/api/v2/webhooks/receipts", {
        method: "POST",
        key: null,
        headers: {
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
          "webhook-signature": signer.sign(id, at, text),
        },
        body: text,
      });
    };
    const receivedAt = new Date().toISOString();
    // Signed with another secret, or five minutes late: refused.
    const wrong = await submit(
      { evtId, receivedAt },
      new Webhook(`whsec_${Buffer.from("not the secret").toString("base64")}`),
    );
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).code).toBe("WEBHOOK_RECEIPT_SIGNATURE_INVALID");
    expect((await submit({ evtId, receivedAt }, undefined, new Date(Date.now() - 6 * 60_000))).status).toBe(401);
    const accepted = await submit({ evtId, receivedAt });
    expect(accepted.status).toBe(201);
    expect((await json(accepted)).data).toMatchObject({ evtId, endpointId: endpoint.id, receivedAt });
    expect((await submit({ evtId, receivedAt })).status).toBe(200);

    await expect.poll(async () => (await list()).status, poll).toBe("succeeded");
    const settled = of(FINAL, transfer).length;
    await new Promise((r) => setTimeout(r, 2000));
    expect(of(FINAL, transfer).length).toBe(settled);
    const receipts = await json(await stack.api(`/api/v2/webhooks/receipts/${evtId}`));
    expect(receipts.data).toMatchObject({ evtId, type: FINAL, receipts: [{ endpointId: endpoint.id, receivedAt }] });
    expect((await stack.api("/api/v2/webhooks/receipts/evt_nope")).status).toBe(404);
  });

  it("tells a transfer a reorg moves to another block as final once, at its new block", async () => {
    const transfer = await write("transfer", { recipients: [ALICE], amounts: ["7"] }, "lifecycle-moved-1");
    const raw = (await stack.rpc("eth_getRawTransactionByHash", [transfer])) as string;
    const before = await blockOf(transfer);
    // Replace the last two blocks (an empty one and the transfer's); the transfer comes back one block earlier.
    await stack.rpc("anvil_reorg", [2, [[raw, 0]]]);
    const after = await blockOf(transfer);
    expect(after).toBe(before - 1);
    await mine(DEPTH + 1);
    await expect.poll(() => of(FINAL, transfer).length, poll).toBeGreaterThan(0);
    await mine(DEPTH);
    await new Promise((r) => setTimeout(r, 1500));
    const finals = distinct(of(FINAL, transfer));
    expect(finals).toHaveLength(1);
    expect(finals[0].payload.blockNumber).toBe(after);
  });

  it("recalls a final issuance whose block a reorg deeper than the depth replaces", async () => {
    const signer = (await json(await stack.api("/api/user/assets"))).wallets[0] as string;
    const mint = await write("mint", { recipients: [signer], amounts: ["3"] }, "lifecycle-mint-recalled");
    await mine(DEPTH);
    await expect.poll(() => of(ISSUANCE, mint, "final").length, poll).toBeGreaterThan(0);
    const [final] = of(ISSUANCE, mint, "final");
    const raw = (await stack.rpc("eth_getRawTransactionByHash", [mint])) as string;
    const block = await blockOf(mint);
    const head = Number(BigInt((await stack.rpc("eth_blockNumber")) as string));
    expect(head - block).toBeGreaterThanOrEqual(DEPTH);
    // Replace every block from the mint's on (deeper than the depth); the mint comes back one block later.
    await stack.rpc("anvil_reorg", [head - block + 1, [[raw, 1]]]);
    expect(await blockOf(mint)).toBe(block + 1);
    await expect.poll(() => of(ISSUANCE, mint, "recalled").length, afterReorg).toBeGreaterThan(0);
    expect(of(ISSUANCE, mint, "recalled")[0]).toMatchObject({ recalled_evt_id: final.evt_id, payload: final.payload });
    expect(statesOf(mint).slice(0, 4)).toEqual(["pending", "provisional", "final", "recalled"]);
    // token.transfer.final (a final type) is recalled too.
    await expect.poll(() => of(FINAL, mint, "recalled").length, poll).toBeGreaterThan(0);
  });

  it("tells a role revoked on the system's access manager as provisional", async () => {
    const op = operator(stack);
    const chain = await op.db.platform
      .selectFrom("organizationChains")
      .select(["systemAddress", "contracts"])
      .where("organizationId", "=", stack.platform.credentials.organizationId)
      .executeTakeFirstOrThrow();
    await op.close();
    const system = getAddress(chain.systemAddress as string);
    const accessManager = getAddress(chain.contracts?.accessManager as string);
    const role = keccak256(toHex("WEBHOOK_TEST_ROLE"));
    // The system contract is an admin of its access manager: act as it (anvil impersonation), outside the API.
    await stack.rpc("anvil_impersonateAccount", [system]);
    await stack.rpc("anvil_setBalance", [system, "0xde0b6b3a7640000"]);
    const send = async (functionName: "grantRoleBatch" | "revokeRoleBatch") => {
      const data = encodeFunctionData({ abi: SystemAccessManagerAbi, functionName, args: [role, [CAROL]] });
      const hash = (await stack.rpc("eth_sendTransaction", [{ from: system, to: accessManager, data }])) as string;
      await expect.poll(() => stack.rpc("eth_getTransactionReceipt", [hash]), poll).not.toBeNull();
      return hash;
    };
    await send("grantRoleBatch");
    const revoked = await send("revokeRoleBatch");
    const block = await blockOf(revoked);
    await expect.poll(() => of(ROLE_REVOKED, revoked).length, poll).toBeGreaterThan(0);
    const [event] = of(ROLE_REVOKED, revoked);
    expect(event).toMatchObject({
      lifecycle_state: "provisional",
      related: { idxr_access_control_role_member: `${accessManager}-${role}-${CAROL}`.toLowerCase() },
      payload: {
        accessManagerAddress: accessManager,
        accountAddress: CAROL,
        blockNumber: String(block),
        chainId: 31337,
        roleId: role,
        sender: system,
        systemAddress: system,
        transactionHash: revoked,
      },
    });
    expect(event.request).toBeUndefined(); // not caused by an API request
  });

  it("retracts the provisional event of a mint a reorg removes; sent again, the mint is told again and final once", async () => {
    const signer = (await json(await stack.api("/api/user/assets"))).wallets[0] as string;
    const mint = await write("mint", { recipients: [signer], amounts: ["99"] }, "lifecycle-mint-gone");
    await expect.poll(() => of(ISSUANCE, mint, "provisional").length, poll).toBeGreaterThan(0);
    const provisional = of(ISSUANCE, mint, "provisional")[0];
    // The mint's block is the head: replace it with an empty one. The platform's finality watch broadcasts the mint
    // again (docs/chain-writes.md): the chain is held (no automine) until the retraction is told.
    await stack.rpc("evm_setAutomine", [false]);
    try {
      await stack.rpc("anvil_reorg", [1, []]);
      expect(await stack.rpc("eth_getTransactionReceipt", [mint])).toBeNull();
      await expect.poll(() => of(ISSUANCE, mint, "retracted").length, poll).toBeGreaterThan(0);
    } finally {
      await stack.rpc("evm_setAutomine", [true]);
    }
    expect(of(ISSUANCE, mint, "retracted")[0]).toMatchObject({
      retracted_evt_id: provisional.evt_id,
      request: { idempotency_key: "lifecycle-mint-gone" },
      payload: provisional.payload,
    });
    expect(of(ISSUANCE, mint, "retracted")[0].evt_id).not.toBe(provisional.evt_id);
    // The same bytes (its nonce is free): mined again under the same hash, told provisional again, then final once.
    await mine(1);
    await expect.poll(async () => (await stack.rpc("eth_getTransactionReceipt", [mint])) !== null, poll).toBe(true);
    await expect.poll(() => distinct(of(ISSUANCE, mint, "provisional")).length, poll).toBe(2);
    await mine(DEPTH + 2);
    await expect.poll(() => of(FINAL, mint).length, poll).toBeGreaterThan(0);
    await expect.poll(() => of(ISSUANCE, mint, "final").length, poll).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 2000));
    expect(distinct(of(FINAL, mint))).toHaveLength(1);
    expect(statesOf(mint)).toEqual(["pending", "provisional", "retracted", "provisional", "final"]);
  });

  it("tells and retracts 10,000 observations of one tick (an index catching up a backfill) under the parameter limit", async () => {
    // More rows than one statement's 65,535 parameters hold (outbox rows have 8 columns): written in chunks.
    const databases = openDatabases(platformDbUrl(stack.env), "ledger", 2);
    try {
      const chainId = stack.platform.credentials.chainId;
      const { systemAddress } = await databases.platform
        .selectFrom("organizationChains")
        .select("systemAddress")
        .where("chainId", "=", chainId)
        .where("systemAddress", "is not", null)
        .executeTakeFirstOrThrow();
      const head = BigInt((await stack.rpc("eth_blockNumber")) as string);
      let observed: IndexedObservation[] = Array.from({ length: 10_000 }, (_, i) => ({
        key: `bulk:${i}`,
        systemAddress: systemAddress!,
        blockNumber: head,
        transactionHash: keccak256(toHex(i)),
        payload: { n: i },
        related: {},
      }));
      const type = "test.bulk.provisional";
      const events = new Map([
        [
          type,
          {
            description: "a test's bulk observations",
            payload: z.object({ n: z.number() }),
            lifecycle: "provisional" as const,
            fromIndex: { read: async () => observed },
          },
        ],
      ]);
      // As the platform's own loop does: a tick rolled back by a serialization failure (40001, the running
      // platform's fan-out touched the outbox meanwhile) is simply run again.
      const tick = async (): Promise<void> => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await settleIndex({
              ...{ db: databases.platform, pool: databases.pool, viewsSchema: databases.viewsSchema },
              ...{ chainId, depth: 1_000, events, logger: createLogger("warn") },
            });
          } catch (error) {
            if ((error as { code?: string }).code !== "40001" || attempt === 5) throw error;
          }
        }
      };
      const told = (state: string) =>
        databases.platform
          .selectFrom("webhookOutbox")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("type", "=", type)
          .where("lifecycleState", "=", state)
          .executeTakeFirstOrThrow();
      await tick();
      expect(Number((await told("provisional")).n)).toBe(10_000);
      observed = []; // a reorg took them all
      await tick();
      expect(Number((await told("retracted")).n)).toBe(10_000);
    } finally {
      await databases.close();
    }
  });
});
