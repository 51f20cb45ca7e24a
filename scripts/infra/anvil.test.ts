import { describe, expect, it } from "vitest";
import { loadConfig } from "../../host/config.ts";
import { miningArguments } from "./anvil.ts";

describe("the embedded chain's mining", () => {
  it("mines each transaction at once by default, with idle blocks only when a block time is given", () => {
    expect(miningArguments("instant", 0)).toEqual([]);
    expect(miningArguments("instant", 2)).toEqual(["--block-time", "2", "--mixed-mining"]);
  });

  it("mines on an interval, fractions of a second allowed, so a burst fills blocks", () => {
    expect(miningArguments("interval", 1)).toEqual(["--block-time", "1"]);
    expect(miningArguments("interval", 0.25)).toEqual(["--block-time", "0.25"]);
    expect(() => miningArguments("interval", 0)).toThrow(/ANVIL_BLOCK_TIME_SECONDS/);
  });

  it("reads ANVIL_MINING and a fractional ANVIL_BLOCK_TIME_SECONDS from the environment", () => {
    const config = loadConfig({ ANVIL_MINING: "interval", ANVIL_BLOCK_TIME_SECONDS: "0.5" });
    expect(config.ANVIL_MINING).toBe("interval");
    expect(config.ANVIL_BLOCK_TIME_SECONDS).toBe(0.5);
    expect(loadConfig({}).ANVIL_MINING).toBe("instant");
    expect(() => loadConfig({ ANVIL_MINING: "sometimes" })).toThrow();
  });
});
