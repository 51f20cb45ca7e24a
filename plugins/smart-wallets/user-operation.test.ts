import { describe, expect, it } from "vitest";
import { packSignatures, requestNonce } from "./user-operation.ts";

const sig = (byte: string) => `0x${byte.repeat(65)}`;

describe("requestNonce", () => {
  it("is the request's own 192-bit key at sequence 0, the same on every run", () => {
    const nonce = requestNonce("0193a8b0-0000-7000-8000-000000000001");
    expect(nonce & ((1n << 64n) - 1n)).toBe(0n);
    expect(nonce >> 64n).toBeLessThan(1n << 192n);
    expect(nonce >> 64n).not.toBe(0n);
    expect(requestNonce("0193a8b0-0000-7000-8000-000000000001")).toBe(nonce);
  });

  it("differs between requests, so one wallet's requests never wait on each other", () => {
    expect(requestNonce("request-a")).not.toBe(requestNonce("request-b"));
  });
});

describe("packSignatures", () => {
  it("packs the signatures in ascending signer address order, by value not by spelling", () => {
    // A checksummed "0xB…" sorts before "0xa…" as text, but after it as a number.
    const signatures = {
      "0xB000000000000000000000000000000000000000": sig("bb"),
      "0xa000000000000000000000000000000000000000": sig("aa"),
      "0x0c00000000000000000000000000000000000000": sig("cc"),
    };
    expect(packSignatures(signatures)).toBe(`0x${"cc".repeat(65)}${"aa".repeat(65)}${"bb".repeat(65)}`);
  });

  it("is empty without signatures", () => {
    expect(packSignatures({})).toBe("0x");
  });
});
