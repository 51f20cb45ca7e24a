import { readFileSync } from "node:fs";
import { keccak256, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { addonKindName } from "./addon-kinds.ts";
import { DIRECTORY_KEYS, directoryKeyName } from "./directory-keys.ts";

const SOLIDITY = readFileSync(new URL("../../contracts/system/DirectoryKeys.sol", import.meta.url), "utf8");

describe("directory keys", () => {
  it("names exactly the keys of DirectoryKeys.sol", () => {
    const names = [...SOLIDITY.matchAll(/constant \w+ =\s+keccak256\("(\w+)"\)/g)].map((m) => m[1]);
    expect([...DIRECTORY_KEYS].sort()).toEqual(names.sort());
    expect(SOLIDITY).toContain(`COUNT = ${DIRECTORY_KEYS.length};`);
  });

  it("maps an on-chain key (any case) to its name, and an unknown key to undefined", () => {
    const key = keccak256(stringToHex("forwarder"));
    expect(directoryKeyName(key)).toBe("forwarder");
    expect(directoryKeyName(key.toUpperCase().replace("0X", "0x") as `0x${string}`)).toBe("forwarder");
    expect(directoryKeyName(keccak256(stringToHex("nope")))).toBeUndefined();
  });
});

describe("addon kinds", () => {
  it("reads the ABI's uint8, an unknown value as unknown", () => {
    expect([0, 1, 2, 7].map(addonKindName)).toEqual(["unknown", "factory", "singleton", "unknown"]);
  });
});
