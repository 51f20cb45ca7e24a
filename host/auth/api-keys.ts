// API keys: a fixed platform prefix and 256 bits of randomness; only a SHA-256 digest is stored.
import { createHash, randomBytes } from "node:crypto";

export const API_KEY_PREFIX = "svc_";

export function generateApiKey(): { key: string; hash: string; displayPrefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, API_KEY_PREFIX.length + 6) };
}

/** A key has 256 bits of entropy, so a fast digest is safe to store (no password stretching needed). */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX) && value.length === API_KEY_PREFIX.length + 43;
}
