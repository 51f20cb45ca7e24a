import { randomBytes } from "node:crypto";
import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, it } from "vitest";
import { seal, unseal } from "../crypto/sealed.ts";
import { deriveAccount, ORGANIZATION_PRIMARY_PATH } from "./custody.ts";

describe("custody", () => {
  it("derives the standard Ethereum account from a bip32 seed", () => {
    // anvil's well-known test mnemonic: its first account on m/44'/60'/0'/0/0 is a published address.
    const seed = mnemonicToSeedSync("test test test test test test test test test test test junk");
    expect(deriveAccount(seed, ORGANIZATION_PRIMARY_PATH).address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(deriveAccount(seed, "m/44'/60'/0'/0/1").address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
  });

  it("encrypts seeds at rest and refuses a wrong key", () => {
    const key = randomBytes(32);
    const seed = randomBytes(32);
    const sealed = seal(seed, key);
    expect(sealed).not.toContain(Buffer.from(seed).toString("base64"));
    expect(Buffer.from(unseal(sealed, key))).toEqual(seed);
    expect(() => unseal(sealed, randomBytes(32))).toThrow();
  });
});
