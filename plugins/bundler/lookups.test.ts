import { describe, expect, it } from "vitest";
import { lookbackRange } from "./lookups.ts";

describe("the lookups' block window (BUNDLER_RECEIPT_LOOKBACK_BLOCKS)", () => {
  it("searches the latest `window` blocks, the latest included", () => {
    expect(lookbackRange(20_000n, 10_000)).toEqual({ fromBlock: "0x2711", toBlock: "0x4e20" }); // 10001..20000
  });

  it("starts at block 0 on a chain younger than the window", () => {
    expect(lookbackRange(5n, 10_000)).toEqual({ fromBlock: "0x0", toBlock: "0x5" });
  });
});
