import { describe, expect, it } from "vitest";
import { blamedEntity } from "./reputation.ts";
import { reputationEntities } from "./reputation-entities.ts";

const staked = { stake: 10n ** 17n, unstakeDelaySec: 86_400n };
const unstaked = { stake: 0n, unstakeDelaySec: 0n };
const PAYMASTER = "0x00000000000000000000000000000000000000Aa";
const FACTORY = "0x00000000000000000000000000000000000000Bb";

describe("reputation entities", () => {
  it("names an operation's paymaster and factory (lowercase) with the stake validation reported", () => {
    expect(
      reputationEntities({ paymaster: PAYMASTER, factory: FACTORY }, { paymasterInfo: staked, factoryInfo: unstaked }),
    ).toEqual([
      { role: "paymaster", address: PAYMASTER.toLowerCase(), staked: true },
      { role: "factory", address: FACTORY.toLowerCase(), staked: false },
    ]);
    expect(reputationEntities({}, { paymasterInfo: unstaked, factoryInfo: unstaked })).toEqual([]);
  });

  it("does not count EIP-7702's factory marker as an entity", () => {
    expect(reputationEntities({ factory: "0x7702" }, { paymasterInfo: unstaked, factoryInfo: unstaked })).toEqual([]);
  });

  it("blames the factory for AA1x, the paymaster for AA3x, for the account's AA2x a staked factory only", () => {
    const op = { paymaster: "0xpm", factory: "0xf" };
    expect(blamedEntity("AA13 initCode failed or OOG", op)).toBe("0xf");
    expect(blamedEntity("AA33 reverted", op)).toBe("0xpm");
    expect(blamedEntity("AA21 didn't pay prefund", op)).toBeUndefined();
    expect(blamedEntity("AA24 signature error", op, true)).toBe("0xf"); // EREP-020: a staked factory answers
    expect(blamedEntity("AA24 signature error", op, false)).toBeUndefined();
    expect(blamedEntity("AA33 reverted", { paymaster: null, factory: null })).toBeUndefined();
  });
});
