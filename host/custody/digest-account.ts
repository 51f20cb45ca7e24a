// One viem LocalAccount over any digest signer (a key in memory or in an HSM): transactions, messages, EIP-712 and
// raw hashes are all hashed here and signed as a 32-byte digest, so the pipeline never sees where the key lives.
import {
  type Address,
  type Hex,
  hashMessage,
  hashTypedData,
  keccak256,
  type LocalAccount,
  type Signature,
  serializeSignature,
  serializeTransaction,
} from "viem";
import { toAccount } from "viem/accounts";

/** What a signature is over, as the audit log records it. */
export type SignatureKind = "transaction" | "message" | "typed-data" | "hash";

/** Signs a 32-byte digest with one key; the signature is low-s with its recovery id. */
export interface DigestSigner {
  address: Address;
  /** The key's name in its store: a derivation path (software) or a token object's label (pkcs11). */
  keyLabel: string;
  signDigest(digest: Hex, kind: SignatureKind): Promise<Signature>;
}

/** A custody key's viem account: a LocalAccount that also signs raw hashes (UserOperations). */
export type CustodyAccount = LocalAccount & { sign: NonNullable<LocalAccount["sign"]> };

export function digestAccount(signer: DigestSigner): CustodyAccount {
  const signHash = async (hash: Hex, kind: SignatureKind) => serializeSignature(await signer.signDigest(hash, kind));
  const account = toAccount({
    address: signer.address,
    sign: ({ hash }) => signHash(hash, "hash"),
    signMessage: ({ message }) => signHash(hashMessage(message), "message"),
    signTypedData: (typedData) => signHash(hashTypedData(typedData), "typed-data"),
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction;
      // As viem's own signTransaction: an EIP-4844 transaction is signed without its sidecars.
      const signable = transaction.type === "eip4844" ? { ...transaction, sidecars: false as const } : transaction;
      const signature = await signer.signDigest(keccak256(await serializer(signable)), "transaction");
      return serializer(transaction, signature);
    },
  });
  return account as CustodyAccount;
}
