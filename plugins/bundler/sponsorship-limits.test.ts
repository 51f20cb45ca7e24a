import type { UserOperation } from "viem/account-abstraction";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../host/errors/api-error.ts";
import { assertWithinSponsorshipLimits, maxCharge, SPONSORSHIP_WINDOW_MS } from "./sponsorship-limits.ts";

const op = (extra: Partial<UserOperation<"0.8">> = {}) =>
  ({
    callGasLimit: 100n,
    verificationGasLimit: 200n,
    preVerificationGas: 50n,
    maxFeePerGas: 10n,
    ...extra,
  }) as UserOperation<"0.8">;

const limits = { operationsPerDay: 3, weiPerDay: 10_000n };
const now = new Date("2026-01-02T00:00:00Z");
const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("not refused");
};

describe("maxCharge", () => {
  it("is every gas limit at maxFeePerGas, the paymaster's too", () => {
    expect(maxCharge(op())).toBe(3_500n);
    expect(maxCharge(op({ paymasterVerificationGasLimit: 30n, paymasterPostOpGasLimit: 20n }))).toBe(4_000n);
  });
});

describe("assertWithinSponsorshipLimits", () => {
  it("lets an operation through up to both limits", () => {
    expect(() =>
      assertWithinSponsorshipLimits("0xs", { operations: 2, wei: 6_500n, oldest: now }, 3_500n, limits, now),
    ).not.toThrow();
  });

  it("refuses the operation past the count, naming the limit and when the oldest leaves the window", () => {
    const oldest = new Date(now.getTime() - SPONSORSHIP_WINDOW_MS + 90_000);
    const error = refusal(() =>
      assertWithinSponsorshipLimits("0xs", { operations: 3, wei: 0n, oldest }, 1n, limits, now),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe("BUNDLER_SPONSORSHIP_LIMIT_EXCEEDED");
    expect(error.details).toMatchObject({ limit: "operationsPerDay", usedOperations: 3, retryAfterSeconds: 90 });
  });

  it("refuses the operation whose maximum charge passes the wei limit", () => {
    const error = refusal(() =>
      assertWithinSponsorshipLimits("0xs", { operations: 1, wei: 9_000n, oldest: now }, 1_001n, limits, now),
    );
    expect(error.details).toMatchObject({ limit: "weiPerDay", usedWei: "9000", operationMaxCharge: "1001" });
  });

  it("refuses everything with a zero limit, even the first operation", () => {
    const zero = { operationsPerDay: 0, weiPerDay: 10n };
    const error = refusal(() =>
      assertWithinSponsorshipLimits("0xs", { operations: 0, wei: 0n, oldest: null }, 1n, zero, now),
    );
    expect(error.details).toMatchObject({ limit: "operationsPerDay", retryAfterSeconds: null });
  });
});
