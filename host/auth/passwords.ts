// Passwords and PIN codes: argon2id (OWASP parameters), encoded with their salt and parameters.
import { randomBytes } from "node:crypto";
import { argon2id, argon2Verify } from "hash-wasm";

export async function hashSecret(secret: string): Promise<string> {
  return argon2id({
    password: secret,
    salt: randomBytes(16),
    parallelism: 1,
    iterations: 2,
    memorySize: 19_456, // KiB
    hashLength: 32,
    outputType: "encoded",
  });
}

export async function verifySecret(secret: string, encoded: string | null): Promise<boolean> {
  if (!encoded) return false;
  try {
    return await argon2Verify({ password: secret, hash: encoded });
  } catch {
    return false;
  }
}
