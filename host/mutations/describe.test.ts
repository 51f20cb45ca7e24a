import { encodeFunctionData, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { TokenAbi } from "../../abis/Token.ts";
import { TokenFactoryAbi } from "../../abis/TokenFactory.ts";
import { accountList, describeCall, formatAmount, shortAddress } from "./describe.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TOKEN = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

describe("describeCall", () => {
  it("summarises a platform call: kind, function, abridged arguments, target", () => {
    const data = encodeFunctionData({ abi: TokenAbi, functionName: "batchMint", args: [[ALICE], [5n]] });
    expect(describeCall("token.mint", TOKEN, data)).toBe("token.mint: batchMint([0x7099…79C8], [5]) on 0x5FbD…0aa3");
  });

  it("never spells out calldata: long bytes by length, long lists by count, at most 200 characters", () => {
    const params = `0x${"ab".repeat(2000)}` as const;
    const features = Array.from({ length: 6 }, (_, i) => ({ featureId: `f${i}`, params }));
    const data = encodeFunctionData({
      abi: TokenFactoryAbi,
      functionName: "createTokenWithFeatures",
      args: ["bond", "B", "B", 18, features, zeroAddress, []],
    });
    const text = describeCall("token.create", TOKEN, data);
    expect(text).toContain("createTokenWithFeatures(bond, B, B, 18, [(f0, 2000 bytes), (f1, 2000 bytes)");
    expect(text.length).toBeLessThanOrEqual(200);
    expect(data.length).toBeGreaterThan(8000);
  });

  it("names the kind and target of calldata it cannot decode", () => {
    expect(describeCall("token.mint", TOKEN, "0xdeadbeef")).toBe("token.mint on 0x5FbD…0aa3");
    expect(describeCall("system.create", TOKEN, "0x")).toBe("system.create on 0x5FbD…0aa3");
  });
});

describe("formatAmount", () => {
  it("writes raw units as a grouped decimal amount", () => {
    expect(formatAmount(1_500_500_000_000_000_000_000n, 18)).toBe("1,500.5");
    expect(formatAmount("1234567", 0)).toBe("1,234,567");
    expect(formatAmount(5n, 6)).toBe("0.000005");
    expect(formatAmount(0n, 18)).toBe("0");
  });
});

describe("shortAddress and accountList", () => {
  it("shortens checksummed, and counts the others", () => {
    expect(shortAddress(ALICE.toLowerCase())).toBe("0x7099…79C8");
    expect(accountList([ALICE])).toBe("0x7099…79C8");
    expect(accountList([ALICE, TOKEN, TOKEN])).toBe("0x7099…79C8 and 2 others");
  });
});
