import { encodeFunctionData } from "viem";
import { describe, expect, it } from "vitest";
import { TokenAbi } from "../../abis/Token.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";
import { attachToExisting, effectiveIdempotencyKey, IDEMPOTENCY_WINDOW_MS, type IncomingWrite } from "./idempotency.ts";

const TOKEN_A = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const TOKEN_B = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const mintCall = (to: string, amount: bigint) =>
  encodeFunctionData({ abi: TokenAbi, functionName: "mint", args: [to as `0x${string}`, amount] });
const MINT_100 = mintCall(ALICE, 100n);
const now = Date.parse("2026-11-22T12:00:00Z");
const row = (over: Partial<TransactionRequestRow> = {}) =>
  ({
    id: "t1",
    kind: "token.mint",
    status: "CONFIRMING",
    executor: "eoa",
    walletSelection: {},
    toAddress: TOKEN_A.toLowerCase(),
    data: MINT_100,
    value: 0n,
    createdAt: new Date(now - 1000),
    ...over,
  }) as TransactionRequestRow;
const incoming: IncomingWrite = {
  kind: "token.mint",
  executor: "eoa",
  walletSelection: {},
  to: TOKEN_A,
  data: MINT_100,
  value: 0n,
};
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

  it("refuses a key reused for another call (target, calldata or value) with IDEMPOTENCY_KEY_REUSED", () => {
    const reused = (over: Partial<typeof incoming>) =>
      codeOf(() => attachToExisting(row(), { ...incoming, ...over }, now));
    expect(reused({ to: TOKEN_B })).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(reused({ data: mintCall(ALICE, 101n) })).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(reused({ data: mintCall(TOKEN_B, 100n) })).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(reused({ value: 1n })).toBe("IDEMPOTENCY_KEY_REUSED");
    // Whatever the state of the first request: a completed one never answers another instruction's result.
    expect(codeOf(() => attachToExisting(row({ status: "COMPLETED" }), { ...incoming, to: TOKEN_B }, now))).toBe(
      "IDEMPOTENCY_KEY_REUSED",
    );
    // The same call attaches, however the address is cased; the same body encodes to the same calldata.
    expect(reused({ to: TOKEN_A.toLowerCase(), data: mintCall(ALICE.toLowerCase(), 100n) })).toBe("attached");
    expect(reused({ data: MINT_100.toUpperCase().replace("0X", "0x") })).toBe("attached");
  });

  it("attaches a differing call when the kind ignores the payload (token creation)", () => {
    const create = { ...incoming, kind: "token.create", payloadIgnored: true };
    expect(
      codeOf(() => attachToExisting(row({ kind: "token.create" }), { ...create, data: mintCall(ALICE, 1n) }, now)),
    ).toBe("attached");
    // The other 409 cases still hold.
    expect(codeOf(() => attachToExisting(row({ kind: "token.create", status: "CANCELLED" }), create, now))).toBe(
      "IDEMPOTENCY_REQUEST_CANCELLED",
    );
    expect(codeOf(() => attachToExisting(row(), create, now))).toBe("IDEMPOTENCY_KEY_REUSED");
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
