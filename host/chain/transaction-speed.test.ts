import { describe, expect, it } from "vitest";
import { feesFromHistory, MIN_PRIORITY_FEE, TransactionSpeed } from "./transaction-speed.ts";

const gwei = (n: number) => BigInt(Math.round(n * 1e9));
/** A feeHistory answer: each block's rewards at the 10th / 50th / 90th percentile (empty blocks: gasUsedRatio 0). */
const history = (nextBaseFee: bigint, blocks: { used: number; reward: [number, number, number] }[]) => ({
  baseFeePerGas: [...blocks.map(() => gwei(1)), nextBaseFee],
  gasUsedRatio: blocks.map((b) => b.used),
  reward: blocks.map((b) => b.reward.map(gwei)),
});

describe("feesFromHistory", () => {
  it("pays the 10th, 50th and 90th percentile of what busy blocks paid, with twice the next base fee as headroom", () => {
    const fees = feesFromHistory(
      history(gwei(10), [
        { used: 0.5, reward: [3, 5, 9] },
        { used: 0.4, reward: [4, 6, 10] },
        { used: 0.6, reward: [3, 7, 12] },
        { used: 0.3, reward: [5, 6, 11] },
        { used: 0.5, reward: [3, 5, 10] },
      ]),
    );
    expect(fees.slow.maxPriorityFeePerGas).toBe(gwei(3));
    expect(fees.standard.maxPriorityFeePerGas).toBe(gwei(6));
    expect(fees.fast.maxPriorityFeePerGas).toBe(gwei(12));
    expect(fees.slow.maxFeePerGas).toBe(gwei(23));
    expect(fees.standard.maxFeePerGas).toBe(gwei(26));
    expect(fees.fast.maxFeePerGas).toBe(gwei(32));
  });

  it("on an idle chain (no priority fees paid) pays each speed's floor, ordered slow < standard < fast", () => {
    const fees = feesFromHistory(
      history(gwei(0.5), [
        { used: 0, reward: [0, 0, 0] },
        { used: 0, reward: [0, 0, 0] },
      ]),
    );
    expect(fees.slow.maxPriorityFeePerGas).toBe(MIN_PRIORITY_FEE.slow);
    expect(fees.standard.maxPriorityFeePerGas).toBe(MIN_PRIORITY_FEE.standard);
    expect(fees.fast.maxPriorityFeePerGas).toBe(MIN_PRIORITY_FEE.fast);
    expect(fees.standard.maxFeePerGas).toBe(gwei(1) + MIN_PRIORITY_FEE.standard);
  });

  it("leaves empty blocks out of the percentiles", () => {
    const fees = feesFromHistory(
      history(gwei(1), [
        { used: 0, reward: [0, 0, 0] },
        { used: 0.2, reward: [4, 4, 4] },
        { used: 0, reward: [0, 0, 0] },
      ]),
    );
    expect(fees.fast.maxPriorityFeePerGas).toBe(gwei(4));
  });

  it("keeps each speed 12.5% under the next faster when every block paid the same (e.g. all our own writes)", () => {
    const fees = feesFromHistory(
      history(gwei(1), [
        { used: 0.1, reward: [5, 5, 5] },
        { used: 0.1, reward: [5, 5, 5] },
      ]),
    );
    expect(fees.fast.maxPriorityFeePerGas).toBe(gwei(5));
    expect(fees.standard.maxPriorityFeePerGas).toBe((gwei(5) * 1000n) / 1125n);
    expect(fees.slow.maxPriorityFeePerGas).toBe((fees.standard.maxPriorityFeePerGas * 1000n) / 1125n);
  });

  it("does not ratchet up: fees read from a history of its own fees stay where they are", () => {
    let fees = feesFromHistory(history(gwei(1), []));
    for (let i = 0; i < 20; i++) {
      const paid = (["slow", "standard", "fast"] as const).map((s) => Number(fees[s].maxPriorityFeePerGas) / 1e9);
      fees = feesFromHistory(history(gwei(1), [{ used: 0.1, reward: paid as [number, number, number] }]));
    }
    expect(fees.fast.maxPriorityFeePerGas).toBe(MIN_PRIORITY_FEE.fast);
    expect(fees.standard.maxPriorityFeePerGas).toBe(MIN_PRIORITY_FEE.standard);
  });

  it("orders the speeds for any history", () => {
    for (const reward of [
      [0, 0, 0],
      [1, 1, 1],
      [50, 2, 1],
      [0.01, 0.02, 0.03],
      [100, 100, 100],
    ] as [number, number, number][]) {
      const fees = feesFromHistory(history(gwei(1), [{ used: 0.5, reward }]));
      expect(fees.slow.maxPriorityFeePerGas).toBeLessThan(fees.standard.maxPriorityFeePerGas);
      expect(fees.standard.maxPriorityFeePerGas).toBeLessThan(fees.fast.maxPriorityFeePerGas);
    }
  });
});

describe("TransactionSpeed", () => {
  it("takes slow, standard and fast only", () => {
    expect(TransactionSpeed.options).toEqual(["slow", "standard", "fast"]);
    expect(TransactionSpeed.safeParse("turbo").success).toBe(false);
  });
});
