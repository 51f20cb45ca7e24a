import { encodeFunctionData, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { TokenAbi } from "../../abis/Token.ts";
import { TokenFactoryAbi } from "../../abis/TokenFactory.ts";
import { describeCall } from "./describe.ts";

describe("describeCall", () => {
  it("labels platform calls from their calldata", () => {
    const data = encodeFunctionData({
      abi: TokenAbi,
      functionName: "batchMint",
      args: [["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"], [5n]],
    });
    expect(describeCall(data)).toBe("batchMint([0x70997970C51812dc3A010C7d01b50e0d17dc79C8], [5])");
  });

  it("writes tuples in parentheses", () => {
    const data = encodeFunctionData({
      abi: TokenFactoryAbi,
      functionName: "createTokenWithFeatures",
      args: ["bond", "B", "B", 18, [{ featureId: "permit", params: "0x" }], zeroAddress, []],
    });
    expect(describeCall(data)).toBe(`createTokenWithFeatures(bond, B, B, 18, [(permit, 0x)], ${zeroAddress}, [])`);
  });

  it("is null for calldata it cannot decode", () => {
    expect(describeCall("0xdeadbeef")).toBeNull();
    expect(describeCall("0x")).toBeNull();
  });
});
