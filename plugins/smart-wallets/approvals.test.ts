import { describe, expect, it } from "vitest";
import { weigh } from "./approvals.ts";

const live = {
  threshold: 3n,
  signers: [
    { address: "0x00000000000000000000000000000000000000a1", weight: 2n },
    { address: "0x00000000000000000000000000000000000000b2", weight: 1n },
    { address: "0x00000000000000000000000000000000000000c3", weight: 1n },
  ],
};

describe("weigh", () => {
  it("adds up the weight of the current signers that signed, against the current threshold", () => {
    const state = weigh(live, {
      "0x00000000000000000000000000000000000000a1": "0x01",
      "0x00000000000000000000000000000000000000c3": "0x02",
    });
    expect(state.weight).toBe(3n);
    expect(state.threshold).toBe(3n);
    expect(state.signers.map((s) => s.signed)).toEqual([true, false, true]);
  });

  it("gives no weight to a signature of an account that is no longer a signer", () => {
    const state = weigh(live, { "0x00000000000000000000000000000000000000d4": "0x01" });
    expect(state.weight).toBe(0n);
    expect(state.signers.every((s) => !s.signed)).toBe(true);
  });
});
