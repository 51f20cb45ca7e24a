import { describe, expect, it } from "vitest";
import { hasValidChecksum } from "./address.ts";
import { AddressSchema } from "./schemas.ts";

const CHECKSUMMED = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const MANGLED = "0x70997970C51812dc3a010C7d01b50e0d17dc79C8"; // one letter's case flipped

describe("EVM addresses", () => {
  it("accept a valid EIP-55 checksum, all-lowercase and all-uppercase digits; refuse a wrong checksum", () => {
    expect(hasValidChecksum(CHECKSUMMED)).toBe(true);
    expect(hasValidChecksum(CHECKSUMMED.toLowerCase())).toBe(true);
    expect(hasValidChecksum(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBe(true);
    expect(hasValidChecksum(MANGLED)).toBe(false);
  });

  it("AddressSchema says which rule failed", () => {
    expect(AddressSchema.safeParse(CHECKSUMMED).success).toBe(true);
    expect(AddressSchema.safeParse(MANGLED).error?.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/EIP-55 checksum/),
    ]);
    expect(AddressSchema.safeParse("0x123").error?.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/20-byte hex address/),
    ]);
  });
});
