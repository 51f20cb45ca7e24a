// Fixed yield schedules end to end over HTTP against the real stack: a token with historical balances held by the
// organisation's signer (A); a DAILY schedule paid in a 6-decimal token; mid-period, A transfers to a member's
// wallet (B) and B is minted more; once the period ends each is due its end-of-period balance pro rata, exactly; an
// unfunded schedule refuses the claim, a top-up needs an allowance, both claim (B from its own wallet), a second
// claim is refused, the owner withdraws the rest; the claims show in the participant and account activity feeds;
// another organisation cannot see the schedule.
import { type Address, getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyedApi } from "./support/api-flows.ts";
import { type Member, type Operator, operator } from "./support/organizations.ts";
import { organizationStack } from "./support/shared-stack.ts";
import type { TestStack } from "./support/stack.ts";

const ONE = 10n ** 18n;
const DAY = 86_400;
const BASE = "/api/v2/addons/fixed-yield-schedules";
// 3650 bps a year over one day of 365: a DAILY period pays 1/1000 of the balance, one token = 1 USDX (6 decimals).
const RATE_BPS = 3650;
const dailyYield = (balance: bigint) => (balance * 10n ** 6n) / (1000n * ONE);

describe("fixed yield schedules, end to end over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  let owner: string;
  let bee: Member; // holder B: a member with a custody wallet of her own
  let signer: Address; // holder A, the schedule's owner
  let usdx: Address;
  let bond: Address;
  let schedule: Address;
  let startDate: number;

  const { call, write } = keyedApi(
    () => stack,
    () => owner,
  );
  const get = async (path: string, key = owner) => {
    const answer = await call("GET", path, undefined, key);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data;
  };
  const chainNow = async () => {
    const block = (await stack.rpc("eth_getBlockByNumber", ["latest", false])) as { timestamp: string };
    return Number(BigInt(block.timestamp));
  };
  const advanceTo = async (seconds: number) => {
    await stack.rpc("evm_increaseTime", [seconds - (await chainNow())]);
    await stack.rpc("evm_mine");
  };
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  const createBody = (overrides: Record<string, unknown> = {}) => ({
    tokenAddress: bond,
    rateBps: RATE_BPS,
    interval: "DAILY",
    startDate: iso(startDate),
    endDate: iso(startDate + 2 * DAY),
    denominationAsset: usdx,
    ...overrides,
  });

  beforeAll(async () => {
    stack = await organizationStack("fixed-yield-schedules", "clock-moving");
    ops = operator(stack);
    owner = stack.platform.credentials.apiKey;
    bee = await ops.member(stack.platform.credentials.organizationId, "member", "Bee Holder");
    // The platform funds its organisation signers' gas, not members' wallets: B's gas, as a test chain grants it.
    await stack.rpc("anvil_setBalance", [bee.wallet, "0x8AC7230489E80000"]);
    usdx = getAddress(
      (
        await write("POST", "/api/v2/tokens", {
          templateId: "deposit",
          name: "US Dollar X",
          symbol: "USDX",
          decimals: 6,
        })
      ).tokenAddress,
    );
    bond = getAddress(
      (
        await write("POST", "/api/v2/tokens", {
          templateId: "deposit",
          name: "Yield Note",
          symbol: "YN",
          decimals: 18,
          featureConfigs: { "historical-balances": {} },
        })
      ).tokenAddress,
    );
    signer = getAddress((await get("/api/v2/transaction-requests?page[limit]=1"))[0].fromAddress);
    await write("POST", `/api/v2/tokens/${usdx}/mint`, { recipients: [signer], amounts: [String(10n ** 12n)] });
    await write("POST", `/api/v2/tokens/${bond}/mint`, { recipients: [signer], amounts: [String(300n * ONE)] });
    startDate = (await chainNow()) + 600;
  }, 120_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  it("refuses bad terms before queueing, each with a clear error", async () => {
    const noHistory = await call("POST", BASE, createBody({ tokenAddress: usdx }));
    expect(noHistory.status, JSON.stringify(noHistory.body)).toBe(422);
    expect(noHistory.body).toMatchObject({
      code: "FIXED_YIELD_TOKEN_INVALID",
      data: { reason: "historical-balances-required" },
    });
    const stranger = await call(
      "POST",
      BASE,
      createBody({ tokenAddress: "0x000000000000000000000000000000000000dEaD" }),
    );
    expect(stranger.body).toMatchObject({ code: "FIXED_YIELD_TOKEN_INVALID", data: { reason: "not-a-system-token" } });
    const asset = await call(
      "POST",
      BASE,
      createBody({ denominationAsset: "0x000000000000000000000000000000000000dEaD" }),
    );
    expect(asset.status).toBe(422);
    expect(asset.body.code).toBe("FIXED_YIELD_DENOMINATION_ASSET_INVALID");
    const past = await call("POST", BASE, createBody({ startDate: iso((await chainNow()) - 60) }));
    expect(past.status).toBe(400);
    expect(past.body.data.issues[0].path).toBe("startDate");
    const backwards = await call("POST", BASE, createBody({ endDate: iso(startDate - DAY) }));
    expect(backwards.status).toBe(400);
    expect(backwards.body.data.issues[0].path).toBe("endDate");
    const interval = await call("POST", BASE, createBody({ interval: "HOURLY" }));
    expect(interval.status).toBe(400);
    const endless = await call("POST", BASE, createBody({ endDate: iso(startDate + 1001 * DAY) }));
    expect(endless.status).toBe(400);
    expect(endless.body.data.issues[0].path).toBe("endDate");
  });

  it("creates a DAILY schedule and reads it back from the index", async () => {
    schedule = getAddress((await write("POST", BASE, createBody())).scheduleAddress);
    const view = await get(`${BASE}/${schedule}`);
    expect(view).toMatchObject({
      address: schedule,
      owner: signer,
      token: { address: bond, symbol: "YN", decimals: 18 },
      denominationAsset: { address: usdx, symbol: "USDX", decimals: 6 },
      rateBps: RATE_BPS,
      interval: "DAILY",
      intervalSeconds: DAY,
      startDate: iso(startDate),
      endDate: iso(startDate + 2 * DAY),
      funded: "0",
      totalClaimed: "0",
    });
    expect(view.periods).toEqual([
      { index: 0, start: iso(startDate), end: iso(startDate + DAY), completed: false, totalYield: null },
      { index: 1, start: iso(startDate + DAY), end: iso(startDate + 2 * DAY), completed: false, totalYield: null },
    ]);

    const unknown = await call("GET", `${BASE}/0x000000000000000000000000000000000000dEaD`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("FIXED_YIELD_SCHEDULE_NOT_FOUND");
    expect((await call("GET", `${BASE}/0x1234`)).status).toBe(400);
  });

  it("pays each holder pro rata to its balance at the period's end (B bought in mid-period)", async () => {
    await advanceTo(startDate + DAY / 2);
    await write("POST", `/api/v2/tokens/${bond}/transfer`, { recipients: [bee.wallet], amounts: [String(100n * ONE)] });
    await write("POST", `/api/v2/tokens/${bond}/mint`, { recipients: [bee.wallet], amounts: [String(50n * ONE)] });
    const early = await call("POST", `${BASE}/${schedule}/claims`, {});
    expect(early.body.code).toBe("FIXED_YIELD_NOTHING_DUE");

    await advanceTo(startDate + DAY + 60);
    const forA = await get(`${BASE}/${schedule}?holder=${signer}`);
    expect(forA.periods.map((p: { completed: boolean }) => p.completed)).toEqual([true, false]);
    expect(forA.periods[0].totalYield).toBe(String(dailyYield(350n * ONE)));
    expect(forA.holder).toMatchObject({ due: String(dailyYield(200n * ONE)), claimed: "0", nextPeriod: 0 });
    expect(forA.holder.claimable).toBe(forA.holder.due);
    const forB = await get(`${BASE}/${schedule}?holder=${bee.wallet}`);
    expect(forB.holder).toMatchObject({ due: String(dailyYield(150n * ONE)), claimed: "0" });
    expect(BigInt(forA.holder.due) + BigInt(forB.holder.due)).toBe(BigInt(forA.periods[0].totalYield));
  });

  it("refuses a claim on an unfunded schedule, naming what is due and what it holds", async () => {
    const refused = await call("POST", `${BASE}/${schedule}/claims`, {});
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body).toMatchObject({
      code: "FIXED_YIELD_SCHEDULE_UNDERFUNDED",
      data: { due: String(dailyYield(200n * ONE)), available: "0" },
    });
  });

  it("tops up once the schedule holds an allowance, and both holders claim exactly what is due", async () => {
    expect((await call("POST", `${BASE}/${schedule}/top-ups`, { amount: "0" })).status).toBe(400);
    const noAllowance = await call("POST", `${BASE}/${schedule}/top-ups`, { amount: "1000000" });
    expect(noAllowance.status).toBe(422);
    expect(noAllowance.body).toMatchObject({
      code: "ERC20_ALLOWANCE_INSUFFICIENT",
      data: { asset: usdx, spender: schedule, required: "1000000", allowance: "0" },
    });
    await write("POST", `/api/v2/tokens/${usdx}/approvals`, { spender: schedule, amount: "1000000" });
    await write("POST", `${BASE}/${schedule}/top-ups`, { amount: "1000000" });
    expect((await get(`${BASE}/${schedule}`)).funded).toBe("1000000");

    await write("POST", `${BASE}/${schedule}/claims`, {});
    // B signs from her own custody wallet, with her own key.
    await write("POST", `${BASE}/${schedule}/claims`, { accountWalletId: bee.wallet }, bee.key);

    const forA = await get(`${BASE}/${schedule}?holder=${signer}`);
    expect(forA.holder).toMatchObject({
      due: String(dailyYield(200n * ONE)),
      claimed: String(dailyYield(200n * ONE)),
      claimable: "0",
      nextPeriod: 1,
    });
    const forB = await get(`${BASE}/${schedule}?holder=${bee.wallet}`, bee.key);
    expect(forB.holder).toMatchObject({ claimed: String(dailyYield(150n * ONE)), claimable: "0" });
    expect(forB.totalClaimed).toBe(String(dailyYield(350n * ONE)));
    expect(forB.funded).toBe(String(1_000_000n - dailyYield(350n * ONE)));
  });

  it("refuses a second claim (nothing due) and lets only the owner withdraw the rest", async () => {
    const again = await call("POST", `${BASE}/${schedule}/claims`, {});
    expect(again.status).toBe(422);
    expect(again.body.code).toBe("FIXED_YIELD_NOTHING_DUE");

    const rest = 1_000_000n - dailyYield(350n * ONE);
    const byMember = await call("POST", `${BASE}/${schedule}/withdrawals`, { amount: "1" }, bee.key);
    expect(byMember.status).toBe(403);
    const tooMuch = await call("POST", `${BASE}/${schedule}/withdrawals`, { amount: String(rest + 1n) });
    expect(tooMuch.body).toMatchObject({
      code: "FIXED_YIELD_SCHEDULE_UNDERFUNDED",
      data: { requested: String(rest + 1n), available: String(rest) },
    });
    await write("POST", `${BASE}/${schedule}/withdrawals`, { amount: String(rest) });
    expect((await get(`${BASE}/${schedule}`)).funded).toBe("0");
  });

  it("shows the schedule's events in the holders' activity feeds", async () => {
    const names = (rows: { eventName: string }[]) => rows.map((r) => r.eventName);
    const mine = await get(`/api/v2/participants/${bee.userId}/activities?page[limit]=200`, bee.key);
    expect(names(mine)).toContain("FixedYieldClaimed");
    const account = await get(`/api/v2/system/accounts/${signer}/activities?page[limit]=200`);
    expect(names(account)).toEqual(
      expect.arrayContaining([
        "FixedYieldScheduleCreated",
        "FixedYieldToppedUp",
        "FixedYieldClaimed",
        "FixedYieldWithdrawn",
      ]),
    );
    const claimsOfB = await get(
      `/api/v2/system/accounts/${bee.wallet}/activities?filter[eventName]=FixedYieldClaimed`,
      bee.key,
    );
    expect(claimsOfB).toHaveLength(1);
  });

  it("answers 404 to another organisation, which cannot see the schedule nor write to it", async () => {
    const otherKey = await ops.keyFor(await ops.organization("Organisation B"), "owner");
    for (const [method, path, body] of [
      ["GET", `${BASE}/${schedule}`, undefined],
      ["POST", `${BASE}/${schedule}/claims`, {}],
      ["POST", `${BASE}/${schedule}/top-ups`, { amount: "1" }],
    ] as const) {
      const answer = await call(method, path, body, otherKey);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe("FIXED_YIELD_SCHEDULE_NOT_FOUND");
    }
    const foreignToken = await call("POST", BASE, createBody({ startDate: iso((await chainNow()) + 600) }), otherKey);
    expect(foreignToken.body).toMatchObject({
      code: "FIXED_YIELD_TOKEN_INVALID",
      data: { reason: "not-a-system-token" },
    });
  }, 120_000);
});
