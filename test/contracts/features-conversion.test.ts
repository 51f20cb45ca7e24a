// conversion and conversion-minter: a note converts into the target token inside its window.
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  encode,
  expectRevert,
  type FeatureId,
  ROLES,
  role,
  startTokenFixture,
  type TokenFixture,
} from "./token-fixture.ts";

let f: TokenFixture;
let admin: Address;
let alice: Address;
let bob: Address;
let usdc: Address;
let target: Address;
let minter: Address;

beforeAll(async () => {
  f = await startTokenFixture();
  [admin, alice, bob] = f.chain.accounts;
  usdc = await f.deploy("MockERC20", ["USD Coin", "USDC", 6]);
  const created = await f.createToken({
    name: "Equity",
    symbol: "EQ",
    decimals: 18,
    features: [{ featureId: "conversion-minter", params: "0x" }],
  });
  target = created.token;
  minter = created.features["conversion-minter"];
});
afterAll(() => f?.chain.stop());

const tokenCall = (from: number, token: Address, fn: string, args: readonly unknown[] = []) =>
  f.write(from, token, f.tokenAbi, fn, args);
const featureCall = (from: number, id: FeatureId, feature: Address, fn: string, args: readonly unknown[] = []) =>
  f.write(from, feature, f.featureAbi(id), fn, args);
const balanceOf = (token: Address, account: Address) => f.read<bigint>(token, f.tokenAbi, "balanceOf", [account]);

async function terms(overrides: Partial<Parameters<typeof encode.conversion>[0]> = {}) {
  const now = await f.now();
  return {
    targetToken: target,
    conversionMinter: minter,
    denominationAsset: usdc,
    discountBps: 2_000n,
    capPricePerShareWad: parseUnits("10", 18),
    conversionWindowStart: now,
    conversionWindowEnd: now + 1_000n,
    minConversionAmount: parseUnits("1", 6),
    partialAllowed: true,
    ...overrides,
  };
}

describe("conversion", () => {
  let note: Address;
  let conversion: Address;
  let current: Awaited<ReturnType<typeof terms>>;

  it("is authorised by the target's conversion-minter at creation when the creator governs the target", async () => {
    current = await terms();
    const created = await f.createToken({
      name: "Note",
      symbol: "NOTE",
      decimals: 6,
      features: [{ featureId: "conversion", params: encode.conversion(current) }],
    });
    note = created.token;
    conversion = created.features.conversion;
    expect(f.events(f.featureAbi("conversion-minter"), created.receipt, "ConversionAuthorizationChanged")).toEqual([
      { sender: admin, conversion, sourceToken: note, authorized: true },
    ]);
    expect(await f.read(minter, f.featureAbi("conversion-minter"), "isAuthorizedConversion", [conversion])).toBe(true);
    expect(await f.read(conversion, f.featureAbi("conversion"), "parameters")).toBe(encode.conversion(current));
  });

  it("burns the note and mints the target at the discounted cap price", async () => {
    await tokenCall(0, note, "mint", [alice, parseUnits("100", 6)]);
    // price = 10 × (1 − 20 %) = 8 denomination units per share: 80 notes buy 10 shares.
    expect(await f.read(conversion, f.featureAbi("conversion"), "conversionPriceWad")).toBe(parseUnits("8", 18));
    const receipt = await f.receipt(await featureCall(1, "conversion", conversion, "convert", [parseUnits("80", 6)]));
    expect(await balanceOf(note, alice)).toBe(parseUnits("20", 6));
    expect(await balanceOf(target, alice)).toBe(parseUnits("10", 18));
    expect(f.events(f.featureAbi("conversion"), receipt, "Converted")).toEqual([
      {
        sender: alice,
        targetToken: target,
        amount: parseUnits("80", 6),
        targetAmount: parseUnits("10", 18),
        priceWad: parseUnits("8", 18),
      },
    ]);
    expect(f.events(f.tokenAbi, receipt, "BurnCompleted", note)).toEqual([
      { sender: conversion, from: alice, amount: parseUnits("80", 6) },
    ]);
    expect(f.events(f.tokenAbi, receipt, "MintCompleted", target)).toEqual([
      { sender: minter, to: alice, amount: parseUnits("10", 18) },
    ]);
    expect(f.events(f.featureAbi("conversion-minter"), receipt, "ConversionMinted")).toEqual([
      { sender: alice, conversion, to: alice, amount: parseUnits("10", 18) },
    ]);
  });

  it("enforces the minimum and, once governance forbids partial conversions, the whole balance", async () => {
    await expectRevert(featureCall(1, "conversion", conversion, "convert", [1n]), "BelowMinimumConversion", [
      1n,
      parseUnits("1", 6),
    ]);
    const next = encode.conversion({ ...current, partialAllowed: false });
    const updated = await f.receipt(await featureCall(0, "conversion", conversion, "updateParameters", [next]));
    expect(f.events(f.featureAbi("conversion"), updated, "FeatureParametersUpdated")).toEqual([
      { sender: admin, token: note, featureId: "conversion", params: next },
    ]);
    await expectRevert(
      featureCall(1, "conversion", conversion, "convert", [parseUnits("8", 6)]),
      "PartialConversionNotAllowed",
      [parseUnits("8", 6), parseUnits("20", 6)],
    );
    await expectRevert(
      featureCall(0, "conversion", conversion, "updateParameters", [
        encode.conversion({ ...current, targetToken: note }),
      ]),
      "ParameterImmutable",
      ["targetToken"],
    );
  });

  it("stops when the target's governance revokes the authorisation", async () => {
    await expectRevert(
      featureCall(1, "conversion-minter", minter, "setConversionAuthorized", [conversion, false]),
      "AccessControlUnauthorizedAccount",
      [alice, ROLES.governance],
    );
    const revoked = await f.receipt(
      await featureCall(0, "conversion-minter", minter, "setConversionAuthorized", [conversion, false]),
    );
    expect(f.events(f.featureAbi("conversion-minter"), revoked, "ConversionAuthorizationChanged")).toEqual([
      { sender: admin, conversion, sourceToken: note, authorized: false },
    ]);
    await expectRevert(
      featureCall(1, "conversion", conversion, "convert", [parseUnits("20", 6)]),
      "ConversionNotAuthorized",
      [target, conversion, alice],
    );
    await featureCall(0, "conversion-minter", minter, "setConversionAuthorized", [conversion, true]);
    await featureCall(1, "conversion", conversion, "convert", [parseUnits("20", 6)]);
    expect(await balanceOf(target, alice)).toBe(parseUnits("12.5", 18));
  });

  it("refuses outside the window", async () => {
    await tokenCall(0, note, "mint", [bob, parseUnits("5", 6)]);
    await f.travel(2_000);
    await expectRevert(
      featureCall(2, "conversion", conversion, "convert", [parseUnits("5", 6)]),
      "OutsideConversionWindow",
    );
  });
});

describe("conversion rules at creation", () => {
  it("requires the target to carry the named conversion-minter", async () => {
    const plain = (await f.createToken({ name: "Plain" })).token;
    await expectRevert(
      f.createToken({
        features: [{ featureId: "conversion", params: encode.conversion(await terms({ targetToken: plain })) }],
      }),
      "ConversionMinterNotOnTarget",
      [plain, minter],
    );
    await expectRevert(
      f.createToken({
        features: [{ featureId: "conversion", params: encode.conversion(await terms({ conversionMinter: bob })) }],
      }),
      "ConversionMinterNotOnTarget",
      [target, bob],
    );
  });

  it("refuses a creator who does not govern the target", async () => {
    await f.write(0, f.accessManager, f.chain.abi("SystemAccessManager"), "grantRole", [
      role("TOKEN_MANAGER_ROLE"),
      bob,
    ]);
    await expectRevert(
      f.createToken({ from: 2, features: [{ featureId: "conversion", params: encode.conversion(await terms()) }] }),
      "ConversionNotAuthorized",
    );
  });

  it("refuses a minter called by anything but a conversion of a token from the same factory", async () => {
    await expectRevert(
      featureCall(0, "conversion-minter", minter, "mintForConversion", [admin, admin, 1n]),
      "ConversionNotAuthorized",
      [target, admin, admin],
    );
  });
});
