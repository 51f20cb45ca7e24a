import { encodeFunctionData, parseAbi } from "viem";
import { describe, expect, it } from "vitest";
import { policyRefusal, valueMoved } from "./classification.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TOKEN = parseAbi([
  "function mint(address to, uint256 amount)",
  "function transfer(address to, uint256 amount)",
  "function batchMint(address[] to, uint256[] amounts)",
  "function pause()",
]);
const call = (data: `0x${string}`, value = 0n) => ({ data, value });

describe("key classification: kinds and value limits", () => {
  it("counts what a write moves: the amount of its call, a batch's total, or its native value", () => {
    expect(valueMoved(call(encodeFunctionData({ abi: TOKEN, functionName: "mint", args: [ALICE, 7n] })))).toBe(7n);
    const batch = encodeFunctionData({
      abi: TOKEN,
      functionName: "batchMint",
      args: [
        [ALICE, ALICE],
        [5n, 6n],
      ],
    });
    expect(valueMoved(call(batch))).toBe(11n);
    expect(valueMoved(call(encodeFunctionData({ abi: TOKEN, functionName: "pause" })))).toBe(0n);
    expect(valueMoved(call("0x", 10n ** 18n))).toBe(10n ** 18n);
  });

  it("refuses a kind outside the classification and a value above the key's limit, before signing", () => {
    const transfer = (amount: bigint) => ({
      kind: "token.transfer",
      ...call(encodeFunctionData({ abi: TOKEN, functionName: "transfer", args: [ALICE, amount] })),
    });
    const mint = {
      kind: "token.mint",
      ...call(encodeFunctionData({ abi: TOKEN, functionName: "mint", args: [ALICE, 1n] })),
    };
    const treasury = { classification: "treasury" as const, maxValue: 1000n };
    expect(policyRefusal(treasury, transfer(1000n))).toBeUndefined();
    expect(policyRefusal(treasury, transfer(1001n))).toBe("value");
    expect(policyRefusal(treasury, mint)).toBe("kind");
    expect(policyRefusal({ classification: "operational", maxValue: null }, mint)).toBeUndefined();
    expect(policyRefusal({ classification: "operational", maxValue: 0n }, mint)).toBe("value");
    expect(
      policyRefusal({ classification: "operational", maxValue: 0n }, { kind: "token.pause", ...call("0x8456cb59") }),
    ).toBeUndefined();
  });
});
