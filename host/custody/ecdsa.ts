// A raw ECDSA signature (r || s, as PKCS#11's CKM_ECDSA returns it) made Ethereum's: s normalised to the lower half
// of the curve order (EIP-2) and the recovery id found from the signer's public point in one verification.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { type Address, bytesToHex, getAddress, type Hex, keccak256, type Signature, toHex } from "viem";

const { Point } = secp256k1;
const Fn = Point.Fn;

/** The order of secp256k1's group. */
export const SECP256K1_N = Fn.ORDER;

/** An HSM key's public point, with its multiples precomputed once: each signature's verification then costs ~1 ms. */
export type PublicPoint = InstanceType<typeof Point>;

export function publicPoint(uncompressed: Uint8Array): PublicPoint {
  const point = Point.fromBytes(uncompressed);
  point.precompute(8, false);
  return point;
}

/**
 * `raw` signed `digest` with the key of `point`: verifying it gives the point R whose x is r, and the recovery id is
 * R's y parity (of the normalised s's R, which is -R when s was flipped). Recovering the address for each candidate
 * id instead cost ~1.5 recoveries a signature, the most expensive step of signing with an HSM.
 */
export function ethereumSignature(raw: Uint8Array, digest: Hex, point: PublicPoint): Signature {
  if (raw.length !== 64) throw new Error(`Expected a 64-byte r||s signature, got ${raw.length} bytes`);
  const r = BigInt(bytesToHex(raw.subarray(0, 32)));
  let s = BigInt(bytesToHex(raw.subarray(32)));
  if (r === 0n || s === 0n || r >= SECP256K1_N || s >= SECP256K1_N) throw new Error("The signature is out of range");
  if (s > SECP256K1_N / 2n) s = SECP256K1_N - s;
  const w = Fn.inv(s);
  const R = Point.BASE.multiplyUnsafe(Fn.mul(Fn.create(BigInt(digest)), w))
    .add(point.multiplyUnsafe(Fn.mul(r, w)))
    .toAffine();
  // R.x ≥ n (r = R.x - n) has probability ~2^-128 and needs a recovery id Ethereum cannot carry.
  if (R.x !== r) throw new Error(`The signature does not verify against ${addressOfPoint(point.toBytes(false))}`);
  return { r: toHex(r, { size: 32 }), s: toHex(s, { size: 32 }), yParity: Number(R.y & 1n) };
}

/** The Ethereum address of an uncompressed public point (0x04 || X || Y). */
export function addressOfPoint(uncompressed: Uint8Array): Address {
  if (uncompressed.length !== 65 || uncompressed[0] !== 4) throw new Error("Expected an uncompressed EC point");
  return getAddress(`0x${keccak256(uncompressed.subarray(1)).slice(-40)}`);
}
