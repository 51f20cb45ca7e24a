import { parseTransaction } from "viem";
import { generatePrivateKey, privateKeyToAccount, sign } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { digestAccount } from "../custody/digest-account.ts";
import { requestValues } from "../mutations/request-values.ts";
import { type StoredAuthorization, storedAuthorizationList, transactionTypeOf } from "./authorizations.ts";

const IMPLEMENTATION = "0x00000000000000000000000000000000000007a1";

async function signedAuthorization(): Promise<StoredAuthorization> {
  const { address, chainId, nonce, r, s, yParity } = await privateKeyToAccount(generatePrivateKey()).signAuthorization({
    address: IMPLEMENTATION,
    chainId: 31337,
    nonce: 4,
  });
  return { address, chainId, nonce, r, s, yParity: yParity! };
}

describe("a write's EIP-7702 authorisations", () => {
  it("are stored with the request and read back as the same list (what a signing after a crash uses)", async () => {
    const list = [await signedAuthorization()];
    const values = requestValues(
      {
        organizationId: "o",
        chainId: 31337,
        kind: "k",
        to: IMPLEMENTATION,
        data: "0x",
        createdBy: "u",
        authorizationList: list,
      },
      { id: "r", from: "0xabc", executor: "eoa", walletSelection: {} },
    );
    expect(JSON.parse(values.authorizationList as string)).toEqual(list);
    expect(storedAuthorizationList(undefined)).toBeNull();
    expect(storedAuthorizationList([])).toBeNull();
  });

  it("make a type-4 transaction that custody signs with the list (any digest signer: software or pkcs11)", async () => {
    const list = [await signedAuthorization()];
    const privateKey = generatePrivateKey();
    const account = digestAccount({
      address: privateKeyToAccount(privateKey).address,
      keyLabel: "test",
      signDigest: (hash) => sign({ hash, privateKey }),
    });
    const fields = {
      chainId: 31337,
      to: IMPLEMENTATION,
      data: "0x",
      gas: 100_000n,
      nonce: 1,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    } as const;
    const stored = JSON.parse(storedAuthorizationList(list)!);
    const raw = await account.signTransaction({ ...fields, ...transactionTypeOf(stored) });
    const parsed = parseTransaction(raw);
    expect(parsed.type).toBe("eip7702");
    expect(parsed.authorizationList?.map(({ v: _, ...auth }) => auth)).toEqual(list);
    expect(transactionTypeOf(null)).toEqual({ type: "eip1559" });
    expect(parseTransaction(await account.signTransaction({ ...fields, ...transactionTypeOf(null) })).type).toBe(
      "eip1559",
    );
  });
});
