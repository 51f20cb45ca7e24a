// Secrets at rest (custody seeds, second-factor secrets): AES-256-GCM under the master key, never logged.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";

export function seal(secret: Uint8Array, masterKey: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", masterKey, iv);
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), ciphertext.toString("base64")].join(
    ":",
  );
}

export function unseal(encrypted: string, masterKey: Buffer): Uint8Array {
  const [version, iv, tag, ciphertext] = encrypted.split(":");
  if (version !== VERSION || !iv || !tag || !ciphertext) throw new Error("Unrecognised sealed secret format");
  const decipher = createDecipheriv("aes-256-gcm", masterKey, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return new Uint8Array(Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]));
}
