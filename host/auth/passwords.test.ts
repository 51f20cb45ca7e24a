import { describe, expect, it } from "vitest";
import { hashSecret, verifySecret } from "./passwords.ts";
import { currentTotp, newTotpSecret, totpUri, verifyTotp } from "./totp.ts";

describe("passwords", () => {
  it("hashes with argon2id and verifies only the same secret", async () => {
    const hash = await hashSecret("correct horse battery staple");
    expect(hash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
    expect(await verifySecret("correct horse battery staple", hash)).toBe(true);
    expect(await verifySecret("wrong", hash)).toBe(false);
    expect(await verifySecret("anything", null)).toBe(false);
    expect(await hashSecret("same")).not.toBe(await hashSecret("same"));
  });
});

describe("TOTP", () => {
  it("accepts the current code and refuses others", () => {
    const secret = newTotpSecret();
    expect(verifyTotp(secret, currentTotp(secret))).toBe(true);
    expect(verifyTotp(secret, "000000") && verifyTotp(secret, "000001")).toBe(false);
    expect(verifyTotp(secret, "12345")).toBe(false);
    expect(totpUri(secret, "owner@example.com")).toMatch(/^otpauth:\/\/totp\//);
  });
});
