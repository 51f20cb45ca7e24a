// Bytes at rest (files, not strings): AES-256-GCM with a fresh 12-byte IV per sealing, the IV and the 16-byte auth
// tag stored before the ciphertext. `context` (e.g. the record's id) is authenticated, not stored: a sealed blob
// moved to another record fails to open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const MAGIC = Buffer.from("SB1\n");
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + IV_BYTES + TAG_BYTES;

export function sealBytes(plaintext: Uint8Array, key: Buffer, context: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), ciphertext]);
}

/** The plaintext; throws when the blob is not one, or its tag does not verify (altered, another key or context). */
export function openBytes(sealed: Uint8Array, key: Buffer, context: string): Buffer {
  const blob = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (blob.length < HEADER_BYTES || !blob.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error("Not a sealed blob");
  const iv = blob.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
  const tag = blob.subarray(MAGIC.length + IV_BYTES, HEADER_BYTES);
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(blob.subarray(HEADER_BYTES)), decipher.final()]);
}

/** The IV a sealed blob was made with (tests check each sealing draws a fresh one). */
export function ivOf(sealed: Uint8Array): Buffer {
  return Buffer.from(sealed).subarray(MAGIC.length, MAGIC.length + IV_BYTES);
}
