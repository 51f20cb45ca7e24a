// The "token-sale" addon: payments up to the hard cap between the dates; after the end the buyers withdraw their
// tokens and the issuer the proceeds when the soft cap was reached, or the buyers their payments when it was missed.
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAddonFactory } from "./addon-fixture.ts";
import { EIP170_LIMIT, expectRevert, type SystemFixture, startSystemFixture, theEvent } from "./system-fixture.ts";

const S = "TokenSale";
const F = "TokenSaleFactory";
const ERC20 = "MockERC20";
const WAD = 10n ** 18n;

let f: SystemFixture;
let factory: Address;
let implementations: Address[];
let token: Address;
let cash: Address;
const ISSUER = 1;
const [A, B] = [2, 3];
const account = (i: number) => f.chain.accounts[i]!;

beforeAll(async () => {
  f = await startSystemFixture();
  const made = await createAddonFactory(f, "token-sale", F, S);
  factory = made.factory;
  implementations = [made.factoryImplementation, made.instanceImplementation];
  token = await f.deploy(ERC20, ["Equity", "EQT", 18]);
  cash = await f.deploy(ERC20, ["Cash", "CSH", 6]);
  await f.send(0, token, ERC20, "mint", [account(ISSUER), 1_000n * WAD]);
  for (const buyer of [A, B]) await f.send(0, cash, ERC20, "mint", [account(buyer), 1_000_000_000n]);
});
afterAll(async () => {
  await f?.chain.stop();
});

const balance = (asset: Address, who: number) => f.read<bigint>(asset, ERC20, "balanceOf", [account(who)]);
const now = async () => (await f.chain.publicClient.getBlock()).timestamp;
async function passTime(seconds: number) {
  await f.chain.testClient.increaseTime({ seconds });
  await f.chain.testClient.mine({ blocks: 1 });
}

/** A sale of EQT for CSH at 2.5 CSH (6 decimals) per EQT (18 decimals), open from now for an hour. */
async function openSale(hardCap: bigint, softCap: bigint) {
  const priceWad = (2_500_000n * WAD) / WAD; // payment units per token unit, 18-decimal fixed point
  const start = await now();
  const { logs } = await f.send(ISSUER, factory, F, "create", [
    token,
    cash,
    priceWad,
    hardCap,
    softCap,
    start,
    start + 3600n,
  ]);
  const created = theEvent(logs, "TokenSaleCreated");
  expect(created).toMatchObject({ issuer: account(ISSUER), token, paymentAsset: cash, hardCap, softCap });
  const sale = created.sale as Address;
  await f.send(ISSUER, token, ERC20, "approve", [sale, hardCap]);
  return sale;
}

async function buy(sale: Address, buyer: number, amount: bigint) {
  const payment = await f.read<bigint>(sale, S, "priceOf", [amount]);
  await f.send(buyer, cash, ERC20, "approve", [sale, payment]);
  return f.send(buyer, sale, S, "purchase", [amount]);
}

describe("TokenSale", () => {
  it("takes payments up to the hard cap; after the end buyers get their tokens and the issuer the proceeds", async () => {
    const sale = await openSale(100n * WAD, 50n * WAD);
    const { logs } = await buy(sale, A, 40n * WAD);
    expect(theEvent(logs, "TokenSalePurchased")).toMatchObject({ amount: 40n * WAD, payment: 100_000_000n });
    await buy(sale, B, 60n * WAD);
    await expectRevert(buy(sale, A, 1n), "TokenSaleHardCapExceeded", [0n]);
    await expectRevert(f.send(A, sale, S, "withdraw"), "TokenSaleNotEnded");
    await passTime(3601);
    await expectRevert(buy(sale, A, 1n), "TokenSaleNotOpen");
    const before = await Promise.all([balance(token, A), balance(cash, ISSUER)]);
    await f.send(A, sale, S, "withdraw");
    expect(await balance(token, A)).toBe(before[0] + 40n * WAD);
    const proceeds = await f.send(ISSUER, sale, S, "withdraw");
    expect(theEvent(proceeds.logs, "TokenSaleProceedsWithdrawn")).toMatchObject({ proceeds: 250_000_000n });
    expect(await balance(cash, ISSUER)).toBe(before[1] + 250_000_000n);
    await expectRevert(f.send(A, sale, S, "withdraw"), "TokenSaleNothingToWithdraw", [account(A)]);
    await expectRevert(f.send(ISSUER, sale, S, "withdraw"), "TokenSaleNothingToWithdraw", [account(ISSUER)]);
  });

  it("refunds every payment and moves no token when the soft cap is missed", async () => {
    const sale = await openSale(100n * WAD, 80n * WAD);
    const before = await Promise.all([balance(cash, A), balance(token, A)]);
    await buy(sale, A, 10n * WAD);
    await passTime(3601);
    const { logs } = await f.send(A, sale, S, "withdraw");
    expect(theEvent(logs, "TokenSaleRefunded")).toMatchObject({ buyer: account(A), payment: 25_000_000n });
    expect(await Promise.all([balance(cash, A), balance(token, A)])).toEqual(before);
    await expectRevert(f.send(ISSUER, sale, S, "withdraw"), "TokenSaleNothingToWithdraw", [account(ISSUER)]);
  });

  it("hands the issuer's seat over in two steps; buyers' tokens still come from the first issuer's allowance", async () => {
    const sale = await openSale(100n * WAD, 50n * WAD);
    await buy(sale, A, 60n * WAD);
    const SUCCESSOR = 4;
    // Only the issuer proposes, only the proposed successor accepts; the issuer keeps the seat until then.
    await expectRevert(f.send(A, sale, S, "transferIssuer", [account(A)]), "TokenSaleNotIssuer", [account(A)]);
    const started = await f.send(ISSUER, sale, S, "transferIssuer", [account(SUCCESSOR)]);
    expect(theEvent(started.logs, "TokenSaleIssuerTransferStarted")).toEqual({
      previousIssuer: account(ISSUER),
      newIssuer: account(SUCCESSOR),
    });
    expect(await f.read(sale, S, "pendingIssuer")).toBe(account(SUCCESSOR));
    expect(await f.read(sale, S, "issuer")).toBe(account(ISSUER));
    await expectRevert(f.send(A, sale, S, "acceptIssuer"), "TokenSaleNotPendingIssuer", [account(A)]);
    const accepted = await f.send(SUCCESSOR, sale, S, "acceptIssuer");
    expect(theEvent(accepted.logs, "TokenSaleIssuerTransferred")).toEqual({
      previousIssuer: account(ISSUER),
      newIssuer: account(SUCCESSOR),
    });
    expect(await f.read(sale, S, "issuer")).toBe(account(SUCCESSOR));
    expect(await f.read(sale, S, "pendingIssuer")).toBe("0x0000000000000000000000000000000000000000");
    expect(await f.read(sale, S, "tokenSource")).toBe(account(ISSUER));
    // The old issuer can neither hand over again nor take the proceeds; the successor takes them.
    await expectRevert(f.send(ISSUER, sale, S, "transferIssuer", [account(ISSUER)]), "TokenSaleNotIssuer", [
      account(ISSUER),
    ]);
    await passTime(3601);
    await expectRevert(f.send(ISSUER, sale, S, "withdraw"), "TokenSaleNothingToWithdraw", [account(ISSUER)]);
    const cash0 = await balance(cash, SUCCESSOR);
    await f.send(SUCCESSOR, sale, S, "withdraw");
    expect(await balance(cash, SUCCESSOR)).toBe(cash0 + 150_000_000n);
    const [tokens0, source0] = [await balance(token, A), await balance(token, ISSUER)];
    await f.send(A, sale, S, "withdraw");
    expect([(await balance(token, A)) - tokens0, source0 - (await balance(token, ISSUER))]).toEqual([
      60n * WAD,
      60n * WAD,
    ]);
  });

  it("refuses terms that cannot work, and fits EIP-170", async () => {
    const t = await now();
    await expectRevert(
      f.send(ISSUER, factory, F, "create", [token, cash, 1n, 10n, 11n, t, t + 60n]),
      "TokenSaleInvalidParameters",
    );
    await expectRevert(
      f.send(ISSUER, factory, F, "create", [token, cash, 1n, 10n, 1n, t, t - 1n]),
      "TokenSaleInvalidParameters",
    );
    for (const address of implementations) {
      const code = await f.chain.publicClient.getCode({ address });
      expect(((code?.length ?? 2) - 2) / 2).toBeLessThan(EIP170_LIMIT);
    }
  });
});
