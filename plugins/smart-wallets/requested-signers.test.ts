import { describe, expect, it } from "vitest";
import { requestedSigners } from "./requested-signers.ts";

const a = "0x00000000000000000000000000000000000000aA";
const b = "0x00000000000000000000000000000000000000bb";
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};

describe("the signers a smart wallet's creation asks for", () => {
  it("defaults to one ecdsa signer (the participant's custody wallet) at threshold 1", () => {
    expect(requestedSigners({})).toEqual({ validatorType: "ecdsa", signers: undefined, threshold: "1" });
    expect(requestedSigners({ signers: [{ address: a }] }).signers).toEqual([
      { address: a.toLowerCase(), weight: "1" },
    ]);
  });

  it("takes signers and a threshold as a weighted multisig", () => {
    const wanted = requestedSigners({ signers: [{ address: a, weight: "2" }, { address: b }], threshold: "3" });
    expect(wanted).toMatchObject({ validatorType: "weighted-multisig", threshold: "3" });
  });

  it("refuses what no wallet could satisfy", () => {
    expect(code(() => requestedSigners({ validatorType: "ecdsa", signers: [{ address: a }, { address: b }] }))).toBe(
      "SMART_WALLET_SIGNERS_INVALID",
    );
    expect(code(() => requestedSigners({ validatorType: "weighted-multisig", signers: [{ address: a }] }))).toBe(
      "SMART_WALLET_THRESHOLD_INVALID",
    );
    expect(code(() => requestedSigners({ signers: [{ address: a }, { address: a }], threshold: "1" }))).toBe(
      "SMART_WALLET_SIGNERS_INVALID",
    );
    expect(code(() => requestedSigners({ signers: [{ address: a }, { address: b }], threshold: "3" }))).toBe(
      "SMART_WALLET_SIGNERS_INVALID",
    );
  });
});
