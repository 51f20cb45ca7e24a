import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.ts";
import { assertKeyWithinCaller, keyExcess } from "./key-limits.ts";

const at = (iso: string) => new Date(iso);
const key = (scope: "read" | "read-write", expiresAt: Date | null = null) =>
  ({ kind: "api-key", scope, apiKeyExpiresAt: expiresAt }) as const;

describe("what a key may create", () => {
  it("lets sessions create any key", () => {
    expect(keyExcess({ kind: "session", scope: "read-write" }, { scope: "read-write", expiresAt: null })).toBeNull();
  });

  it("never more scope than the caller's key", () => {
    expect(keyExcess(key("read"), { scope: "read-write", expiresAt: null })).toMatch(/read key cannot create/);
    expect(keyExcess(key("read"), { scope: "read", expiresAt: null })).toBeNull();
    expect(keyExcess(key("read-write"), { scope: "read", expiresAt: null })).toBeNull();
  });

  it("never a later expiry, nor none, when the caller's key expires", () => {
    const limit = at("2030-01-01T00:00:00Z");
    expect(keyExcess(key("read-write", limit), { scope: "read", expiresAt: null })).toMatch(/without expiry/);
    expect(keyExcess(key("read-write", limit), { scope: "read", expiresAt: at("2030-01-01T00:00:01Z") })).toMatch(
      /expiring later/,
    );
    expect(keyExcess(key("read-write", limit), { scope: "read-write", expiresAt: limit })).toBeNull();
    expect(keyExcess(key("read-write"), { scope: "read-write", expiresAt: at("2099-01-01T00:00:00Z") })).toBeNull();
  });

  it("refuses with 403 API_KEY_SCOPE_EXCEEDED", () => {
    const refused = (() => {
      try {
        assertKeyWithinCaller(key("read-write", at("2030-01-01T00:00:00Z")), { scope: "read", expiresAt: null });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: "API_KEY_SCOPE_EXCEEDED", status: 403 });
  });
});
