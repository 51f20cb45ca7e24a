// A raw ECDSA signature (r || s, as PKCS#11's CKM_ECDSA returns it) made Ethereum's: s normalised to the lower half
// of the curve order (EIP-2) and the recovery id found by recovering the known address.
import { type Address, bytesToHex, getAddress, type Hex, keccak256, recoverAddress, type Signature, toHex } from "viem";

/** The order of secp256k1's group. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export async function ethereumSignature(raw: Uint8Array, digest: Hex, address: Address): Promise<Signature> {
  if (raw.length !== 64) throw new Error(`Expected a 64-byte r||s signature, got ${raw.length} bytes`);
  const r = toHex(raw.subarray(0, 32));
  let s = BigInt(bytesToHex(raw.subarray(32)));
  if (s > SECP256K1_N / 2n) s = SECP256K1_N - s;
  for (const yParity of [0, 1]) {
    const signature = { r, s: toHex(s, { size: 32 }), yParity };
    const recovered = await recoverAddress({ hash: digest, signature });
    if (recovered.toLowerCase() === address.toLowerCase()) return signature;
  }
  throw new Error(`The signature does not recover ${address}`);
}

/** The Ethereum address of an uncompressed public point (0x04 || X || Y). */
export function addressOfPoint(uncompressed: Uint8Array): Address {
  if (uncompressed.length !== 65 || uncompressed[0] !== 4) throw new Error("Expected an uncompressed EC point");
  return getAddress(`0x${keccak256(uncompressed.subarray(1)).slice(-40)}`);
}
