import { describe, expect, it } from "vitest";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";
import { attachToExisting, effectiveIdempotencyKey, IDEMPOTENCY_WINDOW_MS } from "./idempotency.ts";

const now = Date.parse("2026-11-22T12:00:00Z");
const row = (over: Partial<TransactionRequestRow> = {}) =>
  ({
    id: "t1",
    kind: "token.mint",
    status: "CONFIRMING",
    executor: "eoa",
    walletSelection: {},
    createdAt: new Date(now - 1000),
    ...over,
  }) as TransactionRequestRow;
const incoming = { kind: "token.mint", executor: "eoa", walletSelection: {} };
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ApiError).code;
  }
  return "attached";
};

describe("idempotency", () => {
  it("attaches a repeat to an active or finished request within 24 hours", () => {
    for (const status of ["QUEUED", "CONFIRMING", "COMPLETED", "FAILED"]) {
      expect(attachToExisting(row({ status }), incoming, now).id).toBe("t1");
    }
    expect(codeOf(() => attachToExisting(row(), { ...incoming, walletSelection: { forceEoa: false } }, now))).toBe(
      "attached",
    );
  });

  it("answers each 409 case of the spec", () => {
    expect(
      codeOf(() => attachToExisting(row({ createdAt: new Date(now - IDEMPOTENCY_WINDOW_MS - 1) }), incoming, now)),
    ).toBe("IDEMPOTENCY_KEY_EXPIRED");
    expect(codeOf(() => attachToExisting(row({ status: "CANCELLED" }), incoming, now))).toBe(
      "IDEMPOTENCY_REQUEST_CANCELLED",
    );
    expect(codeOf(() => attachToExisting(row({ walletSelection: { forceEoa: true } }), incoming, now))).toBe(
      "IDEMPOTENCY_WALLET_SELECTION_MISMATCH",
    );
    expect(
      codeOf(() => attachToExisting(row(), { ...incoming, walletSelection: { accountWalletId: "0xabc" } }, now)),
    ).toBe("IDEMPOTENCY_WALLET_SELECTION_MISMATCH");
    expect(codeOf(() => attachToExisting(row({ status: "DEAD_LETTER" }), incoming, now))).toBe(
      "IDEMPOTENCY_REQUEST_UNRECOVERABLE",
    );
    expect(codeOf(() => attachToExisting(row(), { ...incoming, kind: "token.create" }, now))).toBe(
      "IDEMPOTENCY_KEY_REUSED",
    );
    expect(codeOf(() => attachToExisting(row(), { ...incoming, executor: "smart-wallet" }, now))).toBe(
      "IDEMPOTENCY_KEY_REUSED",
    );
  });

  it("uses the caller's key or generates a UUIDv7", () => {
    expect(effectiveIdempotencyKey("mint-42")).toBe("mint-42");
    expect(effectiveIdempotencyKey(undefined)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(() => effectiveIdempotencyKey("has space")).toThrow(ApiError);
    expect(() => effectiveIdempotencyKey("x".repeat(256))).toThrow(ApiError);
  });
});
