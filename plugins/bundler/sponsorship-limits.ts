// Per-wallet sponsorship limits: a sender's operations paid by a paymaster, counted over the last 24 hours at their
// maximum charge (what the EntryPoint may take from the paymaster's deposit), checked before an operation enters the
// mempool. Operations replaced or dropped before inclusion do not count.
import type { UserOperation } from "viem/account-abstraction";
import { rpcError } from "./rpc-error.ts";

export const SPONSORSHIP_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface SponsorshipLimits {
  operationsPerDay: number;
  weiPerDay: bigint;
}

export interface SponsorshipUsage {
  /** Sponsored operations of the sender in the window. */
  operations: number;
  /** Their maximum charges, summed. */
  wei: bigint;
  /** When the oldest of them was accepted (it leaves the window first). */
  oldest: Date | null;
}

/** The most an operation can cost whoever pays its gas: all its gas limits at its maxFeePerGas. */
export function maxCharge(op: UserOperation<"0.8">): bigint {
  const gas =
    op.callGasLimit +
    op.verificationGasLimit +
    op.preVerificationGas +
    (op.paymasterVerificationGasLimit ?? 0n) +
    (op.paymasterPostOpGasLimit ?? 0n);
  return gas * op.maxFeePerGas;
}

/** Throws BUNDLER_SPONSORSHIP_LIMIT_EXCEEDED when one more operation of `charge` would pass a limit. */
export function assertWithinSponsorshipLimits(
  sender: string,
  usage: SponsorshipUsage,
  charge: bigint,
  limits: SponsorshipLimits,
  now: Date,
): void {
  const overCount = usage.operations + 1 > limits.operationsPerDay;
  const overWei = usage.wei + charge > limits.weiPerDay;
  if (!overCount && !overWei) return;
  const retryAfterSeconds = usage.oldest
    ? Math.max(1, Math.ceil((usage.oldest.getTime() + SPONSORSHIP_WINDOW_MS - now.getTime()) / 1000))
    : null;
  throw rpcError(
    "BUNDLER_SPONSORSHIP_LIMIT_EXCEEDED",
    overCount
      ? `The sender ${sender} has had ${usage.operations} sponsored operations in the last 24 hours (limit ${limits.operationsPerDay})`
      : `The sender's sponsored operations of the last 24 hours may cost ${usage.wei} wei; this one ${charge} more passes the limit of ${limits.weiPerDay} wei`,
    {
      sender,
      limit: overCount ? "operationsPerDay" : "weiPerDay",
      operationsPerDay: limits.operationsPerDay,
      weiPerDay: limits.weiPerDay.toString(),
      usedOperations: usage.operations,
      usedWei: usage.wei.toString(),
      operationMaxCharge: charge.toString(),
      retryAfterSeconds,
    },
  );
}
