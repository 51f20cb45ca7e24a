import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveKey } from "./derive-key.ts";
import { ivOf, openBytes, sealBytes } from "./sealed-bytes.ts";

const master = randomBytes(32);
const key = deriveKey(master, "kyc-documents v1");
const plaintext = Buffer.from("%PDF-1.7 passport scan");

describe("sealed bytes (AES-256-GCM)", () => {
  it("opens what it sealed, and the blob does not hold the plaintext", () => {
    const sealed = sealBytes(plaintext, key, "doc-1");
    expect(openBytes(sealed, key, "doc-1")).toEqual(plaintext);
    expect(sealed.includes(plaintext)).toBe(false);
    expect(openBytes(sealBytes(Buffer.alloc(0), key, "empty"), key, "empty")).toEqual(Buffer.alloc(0));
  });

  it("draws a fresh IV for every sealing, so the same bytes never seal alike", () => {
    const blobs = Array.from({ length: 20 }, () => sealBytes(plaintext, key, "doc-1"));
    expect(new Set(blobs.map((blob) => ivOf(blob).toString("hex"))).size).toBe(20);
    expect(new Set(blobs.map((blob) => blob.toString("hex"))).size).toBe(20);
  });

  it("refuses an altered blob, another key and another context (the auth tag)", () => {
    const sealed = sealBytes(plaintext, key, "doc-1");
    for (const at of [4, 20, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[at] = (tampered[at] as number) ^ 1;
      expect(() => openBytes(tampered, key, "doc-1")).toThrow();
    }
    expect(() => openBytes(sealed.subarray(0, sealed.length - 1), key, "doc-1")).toThrow();
    expect(() => openBytes(sealed, deriveKey(master, "another use"), "doc-1")).toThrow();
    expect(() => openBytes(sealed, deriveKey(randomBytes(32), "kyc-documents v1"), "doc-1")).toThrow();
    expect(() => openBytes(sealed, key, "doc-2")).toThrow();
    expect(() => openBytes(plaintext, key, "doc-1")).toThrow("Not a sealed blob");
  });

  it("derives one key per purpose, the same each time", () => {
    expect(deriveKey(master, "kyc-documents v1")).toEqual(key);
    expect(deriveKey(master, "kyc-documents v2")).not.toEqual(key);
    expect(key).toHaveLength(32);
    expect(key.equals(master)).toBe(false);
  });
});
