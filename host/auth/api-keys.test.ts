import { describe, expect, it } from "vitest";
import { API_KEY_PREFIX, generateApiKey, hashApiKey, looksLikeApiKey } from "./api-keys.ts";

describe("API keys", () => {
  it("carry the platform prefix and 256 bits of randomness, stored only as a digest", () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(looksLikeApiKey(a.key)).toBe(true);
    expect(a.key).not.toBe(b.key);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).not.toContain(a.key.slice(API_KEY_PREFIX.length));
    expect(a.displayPrefix).toBe(a.key.slice(0, API_KEY_PREFIX.length + 6));
  });

  it("rejects values that are not platform keys without a lookup", () => {
    expect(looksLikeApiKey("")).toBe(false);
    expect(looksLikeApiKey("Bearer abc")).toBe(false);
    expect(looksLikeApiKey(`${API_KEY_PREFIX}short`)).toBe(false);
  });
});
