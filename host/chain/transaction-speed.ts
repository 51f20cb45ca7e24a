// X-Transaction-Speed: how much a write bids to be mined. Its fees come from the chain's recent priority fees
// (eth_feeHistory): `slow` pays their 10th percentile, `standard` the median, `fast` the 90th, each at least its floor
// (an idle chain has no priority fees to read) and each at least 12.5% under the next faster one, so the speeds are
// always ordered slow < standard < fast. Pure, so it is tested beside it; fee-history.ts reads the chain.
import { z } from "zod";

export const TRANSACTION_SPEEDS = ["slow", "standard", "fast"] as const;
export const TransactionSpeed = z.enum(TRANSACTION_SPEEDS);
export type TransactionSpeed = z.output<typeof TransactionSpeed>;
export const DEFAULT_TRANSACTION_SPEED: TransactionSpeed = "standard";

/** The percentile of recent priority fees each speed pays (the reward percentiles asked of eth_feeHistory). */
export const SPEED_PERCENTILES = { slow: 10, standard: 50, fast: 90 } as const satisfies Record<
  TransactionSpeed,
  number
>;

/** Blocks of history the fees are read from. */
export const FEE_HISTORY_BLOCKS = 10;

const GWEI = 1_000_000_000n;
/** The least priority fee of each speed: standard's is the 1 gwei nodes (and anvil) suggest when nothing is paid. */
export const MIN_PRIORITY_FEE = { slow: GWEI / 10n, standard: GWEI, fast: 2n * GWEI } as const satisfies Record<
  TransactionSpeed,
  bigint
>;

/** The fees a write signs with. */
export interface SpeedFees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** eth_feeHistory's answer, as viem's getFeeHistory gives it, asked with SPEED_PERCENTILES in speed order. */
export interface FeeHistory {
  /** One more than the blocks: the last is the next block's base fee. */
  baseFeePerGas: bigint[];
  gasUsedRatio: number[];
  /** Per block, the priority fee paid at each of SPEED_PERCENTILES (zeros for an empty block). */
  reward?: bigint[][];
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);
/** 12.5% less (the step a node wants between a transaction and its replacement). */
const stepBelow = (fee: bigint) => (fee * 1000n) / 1125n;

/** The `percentile` (nearest rank) of the values. */
function percentileOf(values: bigint[], percentile: number): bigint {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = Math.ceil((percentile / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
}

/**
 * The fees of every speed from one feeHistory answer. A speed's priority fee is its percentile of what the blocks
 * that carried transactions paid at that percentile, raised to its floor, then lowered to a step under the next faster
 * speed's (capped from above, so a history of our own faster writes cannot ratchet the fees up). Max fee: twice the
 * next block's base fee (room for six full blocks of base-fee rise) plus the priority fee.
 */
export function feesFromHistory(history: FeeHistory): Record<TransactionSpeed, SpeedFees> {
  const nextBaseFee = history.baseFeePerGas.at(-1) ?? 0n;
  const busy = (history.reward ?? []).filter((_, i) => (history.gasUsedRatio[i] ?? 0) > 0);
  const paid = (speed: TransactionSpeed) => {
    const column = TRANSACTION_SPEEDS.indexOf(speed);
    const observed = percentileOf(
      busy.map((rewards) => rewards[column] ?? 0n),
      SPEED_PERCENTILES[speed],
    );
    return max(observed, MIN_PRIORITY_FEE[speed]);
  };
  const fast = paid("fast");
  const standard = min(paid("standard"), stepBelow(fast));
  const slow = min(paid("slow"), stepBelow(standard));
  const fees = (priority: bigint) => ({ maxFeePerGas: 2n * nextBaseFee + priority, maxPriorityFeePerGas: priority });
  return { slow: fees(slow), standard: fees(standard), fast: fees(fast) };
}
