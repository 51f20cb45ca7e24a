// XvP settlements end to end over HTTP against the real stack: two organisations, each with its own deposit token
// minted to its signer wallet. A creates a two-leg settlement (tokenA A→B, tokenB B→A); each side grants the
// settlement its allowance and approves with its own credentials; the execution moves both legs exactly, and both
// sides' account feeds show the settlement's events. With one approval missing, after the cutoff (anvil's clock
// moved) or once cancelled, execution is refused and nothing moves. An organisation with no wallet in a settlement
// sees 404; a hashlocked settlement opens with its secret only.
import { type Address, createPublicClient, erc20Abi, getAddress, type Hex, http, keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFlows, keyedApi } from "./support/api-flows.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { stackChain, type TestStack } from "./support/stack.ts";

const BASE = "/api/v2/addons/xvp-settlements";
const HOUR = 3600;

describe("XvP settlements, end to end over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  let keyA: string;
  let keyB: string;
  let memberA: string;
  let feedKeyB: string;
  let signerA: Address;
  let signerB: Address;
  let tokenA: Address;
  let tokenB: Address;
  let balanceOf: (token: Address, holder: Address) => Promise<bigint>;
  let flows: ReturnType<typeof apiFlows>;

  const { call, write } = keyedApi(
    () => stack,
    () => keyA,
  );
  const balances = async () => ({
    aA: await balanceOf(tokenA, signerA),
    aB: await balanceOf(tokenA, signerB),
    bA: await balanceOf(tokenB, signerA),
    bB: await balanceOf(tokenB, signerB),
  });
  const legs = (amountA: number, amountB: number) => [
    { asset: tokenA, from: signerA, to: signerB, amount: String(amountA) },
    { asset: tokenB, from: signerB, to: signerA, amount: String(amountB) },
  ];
  /** A creates a settlement; its address. */
  const create = async (body: Record<string, unknown>) =>
    getAddress((await write("POST", BASE, body)).settlementAddress);
  const cutoffIn = async (seconds: number) => new Date(((await flows.chainNow()) + seconds) * 1000).toISOString();
  /** The party's allowance to the settlement, then its approval, each with its own organisation's key. */
  const approveAs = async (key: string, token: Address, amount: number, settlement: Address) => {
    await write("POST", `/api/v2/tokens/${token}/approvals`, { spender: settlement, amount: String(amount) }, key);
    await write("POST", `${BASE}/${settlement}/approvals`, {}, key);
  };
  const read = async (settlement: Address, key = keyA) => call("GET", `${BASE}/${settlement}`, undefined, key);
  const execute = (settlement: Address, body: Record<string, unknown> = {}, key = keyA) =>
    call("POST", `${BASE}/${settlement}/executions`, body, key);

  beforeAll(async () => {
    stack = await organizationStack("xvp-settlements", "clock-moving");
    ops = operator(stack);
    flows = apiFlows(stack);
    keyA = stack.platform.credentials.apiKey;
    const orgB = await ops.organization("Organisation B");
    keyB = await ops.keyFor(orgB, "owner");
    feedKeyB = await ops.keyFor(orgB, "identityManager");
    memberA = (await ops.member(stack.platform.credentials.organizationId, "member")).wallet;
    signerA = getAddress((await ops.signerAccount(stack.platform.credentials.organizationId)).address);
    signerB = getAddress((await ops.signerAccount(orgB)).address);
    const client = createPublicClient({ chain: stackChain(stack), transport: http() });
    balanceOf = (token, holder) =>
      client.readContract({ abi: erc20Abi, address: token, functionName: "balanceOf", args: [holder] });
    tokenA = getAddress(
      (await write("POST", "/api/v2/tokens", { templateId: "deposit", name: "Euro A", symbol: "EURA" })).tokenAddress,
    );
    tokenB = getAddress(
      (await write("POST", "/api/v2/tokens", { templateId: "deposit", name: "Krone B", symbol: "KRB" }, keyB))
        .tokenAddress,
    );
    await write("POST", `/api/v2/tokens/${tokenA}/mint`, { recipients: [signerA], amounts: ["1000"] });
    await write("POST", `/api/v2/tokens/${tokenB}/mint`, { recipients: [signerB], amounts: ["1000"] }, keyB);
  }, 240_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  it("settles two tokens atomically between the two organisations' wallets; both feeds show its events", async () => {
    const settlement = await create({ flows: legs(100, 40), cutoffDate: await cutoffIn(HOUR) });

    const pending = await read(settlement);
    expect(pending.status, JSON.stringify(pending.body)).toBe(200);
    expect(pending.body.data).toMatchObject({
      address: settlement,
      creator: signerA,
      hashlock: null,
      status: "PENDING",
      flows: [
        { asset: tokenA, from: signerA, to: signerB, amount: "100", symbol: "EURA", decimals: 2 },
        { asset: tokenB, from: signerB, to: signerA, amount: "40", symbol: "KRB", decimals: 2 },
      ],
      approvals: [
        { party: signerA, approved: false, at: null },
        { party: signerB, approved: false, at: null },
      ],
      executedAt: null,
      cancelledAt: null,
    });
    // B, a party from another organisation, reads it too.
    expect((await read(settlement, keyB)).body.data.status).toBe("PENDING");
    expect((await call("GET", `${BASE}/0x1234`)).status).toBe(400);

    // Without the allowance, B's approval is refused naming the asset, the spender and the amount.
    const early = await call("POST", `${BASE}/${settlement}/approvals`, {}, keyB);
    expect(early.status, JSON.stringify(early.body)).toBe(422);
    expect(early.body).toMatchObject({
      code: "ERC20_ALLOWANCE_INSUFFICIENT",
      data: { asset: tokenB, spender: settlement, required: "40", allowance: "0" },
    });
    const unapproved = await execute(settlement);
    expect([unapproved.status, unapproved.body.code]).toEqual([422, "XVP_SETTLEMENT_NOT_APPROVED"]);
    expect(unapproved.body.data.missingApprovals).toEqual([signerA, signerB]);

    await approveAs(keyA, tokenA, 100, settlement);
    await approveAs(keyB, tokenB, 40, settlement);
    const approved = (await read(settlement)).body.data;
    expect(approved.status).toBe("APPROVED");
    expect(approved.approvals.every((a: { approved: boolean; at: string }) => a.approved && a.at)).toBe(true);

    const before = await balances();
    const done = await execute(settlement, {}, keyB);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.status).toBe("COMPLETED");
    expect(await balances()).toEqual({
      aA: before.aA - 100n,
      aB: before.aB + 100n,
      bA: before.bA + 40n,
      bB: before.bB - 40n,
    });
    const executed = (await read(settlement)).body.data;
    expect(executed).toMatchObject({ status: "EXECUTED", executedInTransaction: done.body.meta.txHashes[0] });
    expect(executed.executedAt).not.toBeNull();
    const again = await execute(settlement);
    expect([again.status, again.body.code]).toEqual([409, "XVP_SETTLEMENT_EXECUTED"]);

    // Each side's account feed (its signer wallet) shows the settlement's events.
    const expected = [
      "XvPSettlementCreated",
      "XvPSettlementApproved",
      "XvPSettlementApproved",
      "XvPSettlementExecuted",
    ];
    for (const [signer, key] of [
      [signerA, keyA],
      [signerB, feedKeyB],
    ] as const) {
      const feed = await call("GET", `/api/v2/system/accounts/${signer}/activities?page[limit]=200`, undefined, key);
      expect(feed.status).toBe(200);
      const ours = feed.body.data.filter((e: { values: { name: string; value: string }[] }) =>
        e.values.some((v) => v.name === "settlement" && getAddress(v.value) === settlement),
      );
      expect(ours.map((e: { eventName: string }) => e.eventName).sort()).toEqual([...expected].sort());
    }
  });

  it("answers 404 to an organisation none of whose wallets takes part, for reads and writes alike", async () => {
    const settlement = await create({
      flows: [{ asset: tokenA, from: signerA, to: memberA, amount: "1" }],
      cutoffDate: await cutoffIn(HOUR),
    });
    expect((await read(settlement)).status).toBe(200);
    for (const answer of [
      await read(settlement, keyB),
      await call("POST", `${BASE}/${settlement}/approvals`, {}, keyB),
      await call("POST", `${BASE}/${settlement}/cancellations`, {}, keyB),
      await execute(settlement, {}, keyB),
    ]) {
      expect([answer.status, answer.body.code]).toEqual([404, "XVP_SETTLEMENT_NOT_FOUND"]);
    }
  });

  it("moves nothing with one approval missing", async () => {
    const settlement = await create({ flows: legs(10, 5), cutoffDate: await cutoffIn(HOUR) });
    await approveAs(keyA, tokenA, 10, settlement);
    const before = await balances();
    const refused = await execute(settlement);
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body).toMatchObject({ code: "XVP_SETTLEMENT_NOT_APPROVED", data: { missingApprovals: [signerB] } });
    expect((await read(settlement)).body.data.status).toBe("PENDING");
    expect(await balances()).toEqual(before);
  });

  it("moves nothing once cancelled", async () => {
    const settlement = await create({ flows: legs(10, 5), cutoffDate: await cutoffIn(HOUR) });
    await approveAs(keyA, tokenA, 10, settlement);
    await approveAs(keyB, tokenB, 5, settlement);
    await write("POST", `${BASE}/${settlement}/cancellations`, {}, keyB);
    const before = await balances();
    const refused = await execute(settlement);
    expect([refused.status, refused.body.code]).toEqual([409, "XVP_SETTLEMENT_CANCELLED"]);
    const cancelled = (await read(settlement)).body.data;
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.cancelledAt).not.toBeNull();
    expect(await balances()).toEqual(before);
  });

  it("opens a hashlock with its secret only", async () => {
    const secret = toHex("open sesame");
    const settlement = await create({
      flows: legs(7, 3),
      cutoffDate: await cutoffIn(HOUR),
      hashlock: keccak256(secret),
    });
    await approveAs(keyA, tokenA, 7, settlement);
    await approveAs(keyB, tokenB, 3, settlement);
    const before = await balances();
    for (const body of [{}, { secret: toHex("wrong") }]) {
      const refused = await execute(settlement, body);
      expect([refused.status, refused.body.code]).toEqual([422, "XVP_SETTLEMENT_SECRET_INVALID"]);
    }
    expect(await balances()).toEqual(before);
    expect((await execute(settlement, { secret })).status).toBe(200);
    expect(await balances()).toEqual({
      aA: before.aA - 7n,
      aB: before.aB + 7n,
      bA: before.bA + 3n,
      bB: before.bB - 3n,
    });
    expect((await read(settlement)).body.data).toMatchObject({ status: "EXECUTED", secret: secret as Hex });
  });

  it("moves nothing after the cutoff (anvil's clock moved past it)", async () => {
    const settlement = await create({ flows: legs(10, 5), cutoffDate: await cutoffIn(600) });
    await approveAs(keyA, tokenA, 10, settlement);
    await approveAs(keyB, tokenB, 5, settlement);
    expect((await read(settlement)).body.data.status).toBe("APPROVED");
    await flows.advanceTime(601);
    const before = await balances();
    const refused = await execute(settlement);
    expect([refused.status, refused.body.code]).toEqual([409, "XVP_SETTLEMENT_EXPIRED"]);
    expect((await read(settlement)).body.data.status).toBe("EXPIRED");
    expect(await balances()).toEqual(before);
    // A creation whose cutoff is already behind the chain's clock is refused before queueing.
    const late = await call("POST", BASE, { flows: legs(1, 1), cutoffDate: await cutoffIn(-60) });
    expect([late.status, late.body.code]).toEqual([422, "XVP_SETTLEMENT_INVALID"]);
  });
});
