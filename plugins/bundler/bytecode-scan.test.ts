import { describe, expect, it } from "vitest";
import { reachableBannedOpcode, reachesExtcode, reachesStorage } from "./bytecode-scan.ts";

describe("ERC-7562 opcode rules read statically from bytecode", () => {
  it("finds a reachable banned opcode, and GAS only when it is not a call's gas argument", () => {
    expect(reachableBannedOpcode("0x4350600060005260206000f3")).toBe("NUMBER"); // NUMBER POP … RETURN
    expect(reachableBannedOpcode("0x600060005260206000f3")).toBeUndefined();
    expect(reachableBannedOpcode("0x5af1")).toBeUndefined(); // GAS CALL
    expect(reachableBannedOpcode("0x5a50")).toBe("GAS"); // GAS POP
  });

  it("skips PUSH data and code reachable only by a jump that has no JUMPDEST", () => {
    expect(reachableBannedOpcode("0x6143420000")).toBeUndefined(); // PUSH2 0x4342: data, not code
    expect(reachableBannedOpcode("0x00fea2646970667358221220")).toBeUndefined(); // STOP INVALID metadata…
    expect(reachableBannedOpcode("0x00fe42")).toBeUndefined(); // TIMESTAMP after a halt, no JUMPDEST
    expect(reachableBannedOpcode("0x005b42")).toBe("TIMESTAMP"); // … but a JUMPDEST makes it reachable
    expect(reachableBannedOpcode("0xfe")).toBe("INVALID"); // reachable from the start
  });

  it("tells code that can reach a (transient) storage access, which only then needs the storage trace", () => {
    expect(reachesStorage("0x5f5450")).toBe(true); // PUSH0 SLOAD POP
    expect(reachesStorage("0x5f5f5d")).toBe(true); // … TSTORE
    expect(reachesStorage("0x600060005260206000f3")).toBe(false);
    expect(reachesStorage("0x61545500")).toBe(false); // PUSH2 0x5455: data, not code
    expect(reachesStorage("0x00fe54")).toBe(false); // SLOAD after a halt, no JUMPDEST
  });

  it("tells code that can reach EXTCODESIZE/EXTCODECOPY/EXTCODEHASH, which only then needs the EXTCODE* trace", () => {
    expect(reachesExtcode("0x303b50")).toBe(true); // ADDRESS EXTCODESIZE POP
    expect(reachesExtcode("0x303f50")).toBe(true); // … EXTCODEHASH
    expect(reachesExtcode("0x5f5f5f303c")).toBe(true); // … EXTCODECOPY
    expect(reachesExtcode("0x613b3f00")).toBe(false); // PUSH2 0x3b3f: data, not code
    expect(reachesExtcode("0x00fe3b")).toBe(false); // EXTCODESIZE after a halt, no JUMPDEST
  });
});
