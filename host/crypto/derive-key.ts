// A key of its own for each use of the master key (HKDF-SHA256), so that no two uses share a key: what one stores
// cannot be opened, nor forged, with another's key.
import { hkdfSync } from "node:crypto";

/** The 32-byte key for `purpose` (e.g. "kyc-documents v1"); the same master key and purpose give the same key. */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), `asset-platform ${purpose}`, 32));
}
