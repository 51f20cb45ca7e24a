import { describe, expect, it } from "vitest";
import { extcodeAccessesOf } from "./extcode-trace.ts";

describe("the EXTCODE* trace", () => {
  it("takes each access lowercase", () => {
    expect(extcodeAccessesOf([["EXTCODESIZE", "0x0A", "0x0B"]])).toEqual([
      { opcode: "EXTCODESIZE", from: "0x0a", to: "0x0b" },
    ]);
  });
});
