// The "fixed-yield-schedule" addon on a platform token with historical balances: two holders are paid pro rata to
// their balances at each period's end (one bought mid-period), claims never exceed what is due, an unfunded schedule
// refuses the claim, and the owner tops it up and withdraws; ownership moves in two steps.
import { type Address, keccak256, parseEventLogs, parseUnits, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRevert } from "./system-fixture.ts";
import { startTokenFixture, type TokenFixture } from "./token-fixture.ts";

const DAY = 86_400n;

let f: TokenFixture;
let owner: Address;
let alice: Address;
let bob: Address;
let usdc: Address;
let token: Address;
let factory: Address;
const S = () => f.chain.abi("FixedYieldSchedule");
const ERC20 = () => f.chain.abi("MockERC20");

beforeAll(async () => {
  f = await startTokenFixture();
  [owner, alice, bob] = f.chain.accounts;
  usdc = await f.deploy("MockERC20", ["USD Coin", "USDC", 6]);
  await f.write(0, usdc, ERC20(), "mint", [owner, parseUnits("1000", 6)]);
  ({ token } = await f.createToken({ features: [{ featureId: "historical-balances", params: "0x" }] }));
  // Every system is created with the type registered and its addon made (its factory announces to the root).
  const system = await f.read<{ addonRegistry: Address }>(f.system, f.chain.abi("System"), "contracts");
  factory = await f.read<Address>(system.addonRegistry, f.chain.abi("AddonRegistry"), "addonOf", [
    keccak256(toHex("fixed-yield-schedule")),
  ]);
});
afterAll(async () => {
  await f?.chain.stop();
});

const usdcOf = (who: Address) => f.read<bigint>(usdc, ERC20(), "balanceOf", [who]);
const read = <T>(schedule: Address, fn: string, args: readonly unknown[] = []) => f.read<T>(schedule, S(), fn, args);

async function createSchedule(rateBps: bigint, startIn: bigint, days: bigint) {
  const start = (await f.now()) + startIn;
  const fabi = f.chain.abi("FixedYieldScheduleFactory");
  const receipt = await f.receipt(
    await f.write(0, factory, fabi, "create", [token, rateBps, "DAILY", start, start + days * DAY, usdc]),
  );
  const [created] = parseEventLogs({ abi: fabi, logs: receipt.logs, eventName: "FixedYieldScheduleCreated" });
  expect(created.args).toMatchObject({ owner, token, denominationAsset: usdc, rateBps, interval: "DAILY" });
  const [announced] = f.events(f.chain.abi("SystemFactory"), receipt, "AddonInstanceCreated");
  expect(announced).toMatchObject({ system: f.system, addon: factory, typeName: "fixed-yield-schedule" });
  expect((announced as { instance: Address }).instance).toBe((created.args as { schedule: Address }).schedule);
  return { schedule: (created.args as { schedule: Address }).schedule, start };
}

describe("FixedYieldSchedule", () => {
  it("pays holders pro rata to their balances at each period's end; claims never exceed what is due", async () => {
    // 36.5 %/year, daily: 0.1 % of the balance a day; 1 token counts as 1 USDC.
    const { schedule, start } = await createSchedule(3650n, 60n, 3n);
    await f.write(0, token, f.tokenAbi, "mint", [alice, parseUnits("1000", 18)]);
    await f.travel(Number(start - (await f.now())) + 10);
    await expectRevert(f.write(1, schedule, S(), "claim"), "FixedYieldNothingDue", [alice, 0n]);
    // Bob buys mid-period 0: he holds 500 at its end, alice 500.
    await f.travel(Number(DAY / 2n));
    await f.write(1, token, f.tokenAbi, "transfer", [bob, parseUnits("500", 18)]);
    await f.travel(Number(DAY / 2n) + 10);
    expect(await read(schedule, "completedPeriods")).toBe(1n);
    expect(await read(schedule, "periodYield", [0n])).toBe(1_000_000n); // 0.1 % of 1000 = 1 USDC for the period
    // Unfunded: the claim is refused with what is due and what is there.
    await expectRevert(f.write(1, schedule, S(), "claim"), "FixedYieldUnderfunded", [500_000n, 0n]);
    await f.write(0, usdc, ERC20(), "approve", [schedule, 10_000_000n]);
    await f.write(0, schedule, S(), "topUp", [10_000_000n]);
    const [a, b] = [await usdcOf(alice), await usdcOf(bob)];
    await f.write(1, schedule, S(), "claim");
    await f.write(2, schedule, S(), "claim");
    expect([(await usdcOf(alice)) - a, (await usdcOf(bob)) - b]).toEqual([500_000n, 500_000n]);
    await expectRevert(f.write(1, schedule, S(), "claim"), "FixedYieldNothingDue", [alice, 1n]);
    // Two more periods, then the end: nothing accrues after it.
    await f.travel(Number(5n * DAY));
    expect(await read(schedule, "completedPeriods")).toBe(3n);
    const [due] = await read<[bigint, bigint, bigint]>(schedule, "claimable", [alice]);
    expect(due).toBe(1_000_000n);
    await f.write(1, schedule, S(), "claim");
    expect(await read(schedule, "totalClaimed")).toBe(2_000_000n);
    // The owner takes back what is left; nobody else can.
    await expectRevert(f.write(1, schedule, S(), "withdraw", [alice, 1n]), "FixedYieldNotOwner", [alice]);
    await f.write(0, schedule, S(), "withdraw", [owner, 8_000_000n]);
    expect(await usdcOf(schedule)).toBe(0n);
  });

  it("hands ownership over in two steps (Ownable2Step) and cannot be renounced", async () => {
    const { schedule } = await createSchedule(100n, 60n, 1n);
    const ZERO = "0x0000000000000000000000000000000000000000";
    await f.write(0, usdc, ERC20(), "approve", [schedule, 2_000_000n]);
    await f.write(0, schedule, S(), "topUp", [2_000_000n]);
    // Only the owner proposes, only the proposed owner accepts; the owner keeps the seat until then.
    await expectRevert(f.write(1, schedule, S(), "transferOwnership", [alice]), "OwnableUnauthorizedAccount", [alice]);
    const started = await f.receipt(await f.write(0, schedule, S(), "transferOwnership", [alice]));
    expect(parseEventLogs({ abi: S(), logs: started.logs, eventName: "OwnershipTransferStarted" })[0].args).toEqual({
      previousOwner: owner,
      newOwner: alice,
    });
    expect([await read(schedule, "owner"), await read(schedule, "pendingOwner")]).toEqual([owner, alice]);
    await expectRevert(f.write(2, schedule, S(), "acceptOwnership"), "OwnableUnauthorizedAccount", [bob]);
    const accepted = await f.receipt(await f.write(1, schedule, S(), "acceptOwnership"));
    expect(parseEventLogs({ abi: S(), logs: accepted.logs, eventName: "OwnershipTransferred" })[0].args).toEqual({
      previousOwner: owner,
      newOwner: alice,
    });
    expect([await read(schedule, "owner"), await read(schedule, "pendingOwner")]).toEqual([alice, ZERO]);
    // The old owner lost the power to withdraw; the new one has it, and cannot renounce it (the funds would be stuck).
    await expectRevert(f.write(0, schedule, S(), "withdraw", [owner, 1n]), "FixedYieldNotOwner", [owner]);
    await f.write(1, schedule, S(), "withdraw", [alice, 2_000_000n]);
    await expectRevert(f.write(1, schedule, S(), "renounceOwnership"), "FixedYieldCannotRenounce");
    expect(await read(schedule, "version")).toBe(2n);
  });

  it("refuses a start in the past, an unknown interval and a token without historical balances", async () => {
    const now = await f.now();
    // The factory's ABI with the schedule's errors, which its initialisation raises.
    const fabi = [...f.chain.abi("FixedYieldScheduleFactory"), ...S().filter((item) => item.type === "error")];
    await expectRevert(
      f.write(0, factory, fabi, "create", [token, 100n, "DAILY", now - 1n, now + DAY, usdc]),
      "FixedYieldInvalidParameters",
    );
    await expectRevert(
      f.write(0, factory, fabi, "create", [token, 100n, "HOURLY", now + 60n, now + DAY, usdc]),
      "FixedYieldUnknownInterval",
      ["HOURLY"],
    );
    const { token: plain } = await f.createToken();
    await expectRevert(
      f.write(0, factory, fabi, "create", [plain, 100n, "DAILY", now + 60n, now + DAY, usdc]),
      "FixedYieldHistoricalBalancesRequired",
      [plain],
    );
  });
});
