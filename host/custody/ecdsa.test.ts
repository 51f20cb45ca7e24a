import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, keccak256, recoverAddress, toHex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { addressOfPoint, ethereumSignature, publicPoint, SECP256K1_N } from "./ecdsa.ts";

const privateKey = secp256k1.utils.randomSecretKey();
const uncompressed = secp256k1.getPublicKey(privateKey, false);

/** A raw r || s as an HSM returns it: s in either half of the order (CKM_ECDSA does not normalise). */
function rawSignature(digest: `0x${string}`, highS: boolean): Uint8Array {
  const compact = secp256k1.sign(Buffer.from(digest.slice(2), "hex"), privateKey, { prehash: false });
  if (!highS) return compact;
  const s = SECP256K1_N - BigInt(bytesToHex(compact.subarray(32)));
  return Buffer.concat([compact.subarray(0, 32), Buffer.from(toHex(s, { size: 32 }).slice(2), "hex")]);
}

describe("an HSM's raw ECDSA signature made Ethereum's", () => {
  it("derives the address of the public point", () => {
    expect(addressOfPoint(uncompressed)).toBe(privateKeyToAddress(bytesToHex(privateKey)));
  });

  it("normalises s to the lower half and finds the recovery id that recovers the signer (both parities seen)", async () => {
    const point = publicPoint(uncompressed);
    const parities = new Set<number>();
    for (let i = 0; i < 24; i++) {
      const digest = keccak256(toHex(`message ${i}`));
      const signature = ethereumSignature(rawSignature(digest, i % 2 === 1), digest, point);
      expect(BigInt(signature.s) <= SECP256K1_N / 2n).toBe(true);
      expect(await recoverAddress({ hash: digest, signature })).toBe(addressOfPoint(uncompressed));
      parities.add(signature.yParity ?? -1);
    }
    expect([...parities].sort()).toEqual([0, 1]);
  });

  it("refuses a signature of another key or another digest", () => {
    const digest = keccak256(toHex("signed"));
    const other = publicPoint(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false));
    expect(() => ethereumSignature(rawSignature(digest, false), digest, other)).toThrow(/does not verify/);
    expect(() =>
      ethereumSignature(rawSignature(digest, false), keccak256(toHex("other")), publicPoint(uncompressed)),
    ).toThrow(/does not verify/);
    expect(() => ethereumSignature(new Uint8Array(64), digest, publicPoint(uncompressed))).toThrow(/out of range/);
  });
});
