import { keccak256, recoverAddress, serializeSignature, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestToken, listTokenObjects, type TestToken } from "../../../test/support/softhsm.ts";
import { ethereumSignature, SECP256K1_N } from "../ecdsa.ts";
import { openPkcs11Token, type Pkcs11Token } from "./token.ts";

describe("a PKCS#11 token (SoftHSM2)", () => {
  let testToken: TestToken;
  let token: Pkcs11Token;

  beforeAll(() => {
    testToken = createTestToken();
    process.env.SOFTHSM2_CONF = testToken.conf; // read by the module when it is initialised
    token = openPkcs11Token({ module: testToken.module, tokenLabel: testToken.label, userPin: testToken.userPin });
  });
  afterAll(() => testToken?.remove());

  it("generates a secp256k1 key inside the token that signs low-s digests recovering its address", async () => {
    const key = await token.generateKey("org/test/primary");
    for (let i = 0; i < 8; i++) {
      const digest = keccak256(toHex(`message ${i}`));
      const raw = await token.signDigest(key, Buffer.from(digest.slice(2), "hex"));
      const signature = ethereumSignature(raw, digest, key.point);
      expect(BigInt(signature.s) <= SECP256K1_N / 2n).toBe(true);
      expect(await recoverAddress({ hash: digest, signature: serializeSignature(signature) })).toBe(key.address);
    }
  });

  it("finds a key again by its label, as after a restart", async () => {
    const key = await token.generateKey("org/test/member-1");
    expect(token.findKey("org/test/member-1")?.address).toBe(key.address);
    expect(token.findKey("org/test/none")).toBeUndefined();
  });

  it("keeps the private keys sensitive and non-extractable (pkcs11-tool's listing)", async () => {
    await token.generateKey("org/test/listed");
    const listing = listTokenObjects(testToken);
    const privateKey = listing
      .split(/\n(?=\S)/)
      .find((o) => o.startsWith("Private Key") && o.includes("org/test/listed"));
    expect(privateKey).toBeDefined();
    expect(privateKey).toMatch(/Access:\s+.*\bsensitive\b/);
    expect(privateKey).toMatch(/never extractable/);
    expect(privateKey).not.toMatch(/Access:[^\n]*(?<!never )\bextractable\b/);
  });
});
