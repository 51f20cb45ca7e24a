import { decodeFunctionData, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { WeightedMultisigAccountAbi } from "../../abis/WeightedMultisigAccount.ts";
import { signerReplacement } from "./wallet-signers.ts";

const wallet = getAddress("0x00000000000000000000000000000000000000aa");
const old = getAddress("0x00000000000000000000000000000000000000b1");
const successor = getAddress("0x00000000000000000000000000000000000000c1");
const cosigner = getAddress("0x00000000000000000000000000000000000000d1");

/** The wallet's calls on itself inside the executeBatch. */
function selfCalls(data: `0x${string}`) {
  const batch = decodeFunctionData({ abi: WeightedMultisigAccountAbi, data });
  expect(batch.functionName).toBe("executeBatch");
  const [calls] = batch.args as [{ target: string; value: bigint; data: `0x${string}` }[]];
  return calls.map((call) => {
    expect([call.target, call.value]).toEqual([wallet, 0n]);
    const { functionName, args } = decodeFunctionData({ abi: WeightedMultisigAccountAbi, data: call.data });
    return [functionName, ...(args ?? [])];
  });
}

describe("replacing an old key among a smart wallet's signers", () => {
  it("adds the successor with the old key's weight, then removes the old key, in one operation of the wallet", () => {
    const replacement = signerReplacement(
      wallet,
      {
        signers: [
          { address: cosigner, weight: 1n },
          { address: old.toLowerCase(), weight: 2n },
        ],
        threshold: 2n,
      },
      old,
      successor,
    );
    expect(replacement).toMatchObject({ weight: 2n });
    expect(selfCalls((replacement as { data: `0x${string}` }).data)).toEqual([
      ["addSigner", successor, 2n],
      ["removeSigner", old],
    ]);
  });

  it("only removes the old key when the successor signs already", () => {
    const replacement = signerReplacement(
      wallet,
      {
        signers: [
          { address: old, weight: 1n },
          { address: successor, weight: 1n },
        ],
        threshold: 1n,
      },
      old,
      successor,
    );
    expect(selfCalls((replacement as { data: `0x${string}` }).data)).toEqual([["removeSigner", old]]);
  });

  it("leaves a wallet whose threshold the old key alone does not reach, and has nothing to do once it is gone", () => {
    const live = {
      signers: [
        { address: old, weight: 1n },
        { address: cosigner, weight: 1n },
      ],
      threshold: 2n,
    };
    expect(signerReplacement(wallet, live, old, successor)).toEqual({ left: "below-threshold", weight: 1n });
    expect(
      signerReplacement(wallet, { signers: [{ address: successor, weight: 1n }], threshold: 1n }, old, successor),
    ).toBeUndefined();
  });
});
