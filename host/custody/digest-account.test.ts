import { generatePrivateKey, privateKeyToAccount, sign } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { digestAccount } from "./digest-account.ts";

const TYPED_DATA = {
  domain: {
    name: "Token",
    version: "1",
    chainId: 31337,
    verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  },
  types: {
    Permit: [
      { name: "owner", type: "address" },
      { name: "value", type: "uint256" },
    ],
  },
  primaryType: "Permit",
  message: { owner: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", value: 5n },
} as const;

describe("an account over a digest signer", () => {
  it("signs transactions, messages, EIP-712 data and hashes exactly as viem's own account does", async () => {
    const privateKey = generatePrivateKey();
    const reference = privateKeyToAccount(privateKey);
    const kinds: string[] = [];
    const account = digestAccount({
      address: reference.address,
      keyLabel: "test",
      signDigest: (hash, kind) => {
        kinds.push(kind);
        return sign({ hash, privateKey });
      },
    });
    const transaction = {
      chainId: 31337,
      type: "eip1559",
      to: TYPED_DATA.message.owner,
      value: 1n,
      gas: 21_000n,
      nonce: 3,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    } as const;
    const hash = `0x${"ab".repeat(32)}` as const;
    expect(await account.signTransaction(transaction)).toBe(await reference.signTransaction(transaction));
    expect(await account.signMessage({ message: "hello" })).toBe(await reference.signMessage({ message: "hello" }));
    expect(await account.signTypedData(TYPED_DATA)).toBe(await reference.signTypedData(TYPED_DATA));
    expect(await account.sign({ hash })).toBe(await reference.sign({ hash }));
    expect(kinds).toEqual(["transaction", "message", "typed-data", "hash"]);
  });
});
