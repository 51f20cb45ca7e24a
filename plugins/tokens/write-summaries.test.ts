import { describe, expect, it } from "vitest";
import { approvalSummary, burnSummary, forcedTransferSummary, mintSummary } from "./write-summaries.ts";

const EURD = { symbol: "EURD", decimals: 18 };
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

describe("token write summaries", () => {
  it("say what moves, how much in the token's units, and to whom", () => {
    expect(mintSummary(EURD, [ALICE], ["1500500000000000000000"])).toBe("Mint 1,500.5 EURD to 0x7099…79C8");
    expect(burnSummary(EURD, [ALICE, BOB], ["1000000000000000000", "2000000000000000000"])).toBe(
      "Burn 3 EURD in total from 0x7099…79C8 and 1 other",
    );
    expect(forcedTransferSummary(EURD, ALICE, BOB, "5")).toBe(
      "Force transfer 0.000000000000000005 EURD from 0x7099…79C8 to 0x3C44…93BC",
    );
    expect(approvalSummary(EURD, BOB, "0")).toBe("Revoke 0x3C44…93BC's allowance of EURD");
  });
});
