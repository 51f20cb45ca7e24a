import {
  keccak256,
  parseSignature,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  toHex,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestToken, type TestToken } from "../../../test/support/softhsm.ts";
import { ORGANIZATION_PRIMARY_PATH } from "../custody.ts";
import { digestAccount } from "../digest-account.ts";
import { SECP256K1_N } from "../ecdsa.ts";
import { createPkcs11Provider, keyLabel } from "./pkcs11-provider.ts";
import { openPkcs11Token } from "./token.ts";

const NO_TRANSACTION = {} as never; // the pkcs11 provider keeps nothing in the database

describe("the pkcs11 custody provider (SoftHSM2)", () => {
  let open: () => ReturnType<typeof createPkcs11Provider>;
  let testToken: TestToken;

  beforeAll(() => {
    testToken = createTestToken();
    process.env.SOFTHSM2_CONF = testToken.conf;
    open = () =>
      createPkcs11Provider(
        openPkcs11Token({ module: testToken.module, tokenLabel: testToken.label, userPin: testToken.userPin }),
      );
  });

  afterAll(() => testToken?.remove());

  it("labels each key with its organisation and purpose", () => {
    expect(keyLabel("org-1", ORGANIZATION_PRIMARY_PATH)).toBe("org/org-1/primary");
    expect(keyLabel("org-1", "m/44'/60'/0'/0/7")).toBe("org/org-1/member-7");
    expect(keyLabel("org-1", "m/44'/60'/1'/0/0")).toBe("org/org-1/service m/44'/60'/1'/0/0");
  });

  it("creates a key once per name and finds it again from a new session, as after a restart", async () => {
    const provider = open();
    const address = await provider.keyAddress(NO_TRANSACTION, "org-a", ORGANIZATION_PRIMARY_PATH);
    expect(await provider.keyAddress(NO_TRANSACTION, "org-a", ORGANIZATION_PRIMARY_PATH)).toBe(address);
    expect(await provider.keyAddress(NO_TRANSACTION, "org-a", "m/44'/60'/0'/0/1")).not.toBe(address);
    const restarted = open();
    expect((await restarted.digestSigner("org-a", ORGANIZATION_PRIMARY_PATH)).address).toBe(address);
    await expect(restarted.digestSigner("org-b", ORGANIZATION_PRIMARY_PATH)).rejects.toThrow(/no key labelled/);
  });

  it("signs transactions, messages and EIP-712 data in the token, low-s, recovering the key's address", async () => {
    const provider = open();
    const address = await provider.keyAddress(NO_TRANSACTION, "org-c", ORGANIZATION_PRIMARY_PATH);
    const account = digestAccount(await provider.digestSigner("org-c", ORGANIZATION_PRIMARY_PATH));
    expect(account.address).toBe(address);
    const serializedTransaction = await account.signTransaction({
      chainId: 31337,
      type: "eip1559",
      to: address,
      value: 1n,
      gas: 21_000n,
      nonce: 0,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    });
    expect(await recoverTransactionAddress({ serializedTransaction: serializedTransaction as `0x02${string}` })).toBe(
      address,
    );
    const typedData = {
      domain: { name: "T", version: "1", chainId: 31337 },
      types: { Mint: [{ name: "amount", type: "uint256" }] },
      primaryType: "Mint",
      message: { amount: 10n },
    } as const;
    const typedSignature = await account.signTypedData(typedData);
    expect(await recoverTypedDataAddress({ ...typedData, signature: typedSignature })).toBe(address);
    for (let i = 0; i < 12; i++) {
      const message = `message ${i}`;
      const signature = await account.signMessage({ message });
      expect(await recoverMessageAddress({ message, signature })).toBe(address);
      expect(BigInt(parseSignature(signature).s) <= SECP256K1_N / 2n).toBe(true);
    }
    // Concurrent signatures share the token's session one operation at a time.
    const hashes = Array.from({ length: 6 }, (_, i) => keccak256(toHex(i)));
    const signatures = await Promise.all(hashes.map((hash) => account.sign({ hash })));
    expect(new Set(signatures).size).toBe(6);
  });
});
