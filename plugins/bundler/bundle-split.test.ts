import { toHex } from "viem";
import { describe, expect, it } from "vitest";
import { type InFlightOperation, MAX_BUNDLE, splitBundles } from "./bundle-split.ts";
import type { UserOperationRow } from "./tables.ts";

const [A, B, C, D] = ["0xaa", "0xbb", "0xcc", "0xdd"].map((s) => s.padEnd(42, "0"));
const [E0, E1, E2] = ["0xe0", "0xe1", "0xe2"].map((s) => s.padEnd(42, "0"));
const KEY_1 = 1n << 64n; // a second nonce key's first sequence number

/** A pending operation of `sender` at `nonce` (gas: 0x5000 call + 0x20000 verification + 0x10000 pre-verification). */
function op(sender: string, nonce: bigint, callGasLimit = "0x5000"): UserOperationRow {
  return {
    userOpHash: `${sender}:${nonce}`,
    sender,
    nonce: nonce.toString(),
    status: "pending",
    userOperation: {
      sender,
      nonce: toHex(nonce),
      callData: "0x",
      callGasLimit,
      verificationGasLimit: "0x20000",
      preVerificationGas: "0x10000",
      maxFeePerGas: "0x1",
      maxPriorityFeePerGas: "0x1",
      signature: "0x",
    },
  } as unknown as UserOperationRow;
}

const inFlight = (sender: string, nonce: bigint, executor: string, signed = true): InFlightOperation => ({
  sender,
  nonce: nonce.toString(),
  executor,
  signed,
});

const split = (pending: UserOperationRow[], flying: InFlightOperation[] = [], busy: string[] = []) =>
  splitBundles({ pending, inFlight: flying, executors: [E0, E1], busy: new Set(busy) }).map((bundle) => ({
    executor: bundle.executor,
    ops: bundle.rows.map((row) => row.userOpHash),
  }));

describe("splitBundles", () => {
  it("spreads the senders over the idle executors, oldest first to the first, each sender's in nonce order", () => {
    const pending = [op(A, 1n), op(B, 0n), op(A, 0n), op(C, 0n), op(D, 0n), op(B, 1n)];
    expect(split(pending)).toEqual([
      { executor: E0, ops: [`${A}:0`, `${A}:1`, `${C}:0`] },
      { executor: E1, ops: [`${B}:0`, `${B}:1`, `${D}:0`] },
    ]);
  });

  it("keeps all of a sender's operations in one bundle, whatever their nonce keys", () => {
    expect(split([op(A, 0n), op(A, KEY_1), op(A, KEY_1 + 1n)])).toEqual([
      { executor: E0, ops: [`${A}:0`, `${A}:${KEY_1}`, `${A}:${KEY_1 + 1n}`] },
    ]);
  });

  it("skips executors with a bundle in flight while others are idle", () => {
    expect(split([op(A, 0n), op(B, 0n), op(C, 0n)], [], [E0])).toEqual([
      { executor: E1, ops: [`${A}:0`, `${B}:0`, `${C}:0`] },
    ]);
    // All busy: the least loaded takes them (queued behind its bundle in flight, as with one executor).
    expect(split([op(A, 0n), op(B, 0n)], [], [E0, E1])).toEqual([
      { executor: E0, ops: [`${A}:0`] },
      { executor: E1, ops: [`${B}:0`] },
    ]);
  });

  it("sends a sender's next operation from the executor of its bundle in flight, even a busy one", () => {
    // A's nonce 0 is in E1's signed bundle: nonce 1 follows it from E1 (E1's next nonce runs after it), never E0.
    expect(split([op(A, 1n), op(B, 0n)], [inFlight(A, 0n, E1)], [E1])).toEqual([
      { executor: E1, ops: [`${A}:1`] },
      { executor: E0, ops: [`${B}:0`] },
    ]);
    // Another key of the same sender stays on its executor too.
    expect(split([op(A, KEY_1)], [inFlight(A, 0n, E1)], [E1])).toEqual([{ executor: E1, ops: [`${A}:${KEY_1}`] }]);
  });

  it("holds an operation behind its predecessor in a bundle not yet signed", () => {
    expect(split([op(A, 1n), op(B, 0n)], [inFlight(A, 0n, E1, false)], [E1])).toEqual([
      { executor: E0, ops: [`${B}:0`] },
    ]);
  });

  it("keeps each bundle within the operation count and gas budget; the rest waits, in nonce order", () => {
    const many = Array.from({ length: MAX_BUNDLE + 3 }, (_, i) => op(A, BigInt(i)));
    const [bundle] = split(many);
    expect(bundle.ops).toHaveLength(MAX_BUNDLE);
    expect(bundle.ops.at(-1)).toBe(`${A}:${MAX_BUNDLE - 1}`);
    // 8M of call gas each: one fits under 15M, the second waits (and nothing of that sender after it).
    const heavy = "0x7a1200";
    expect(split([op(A, 0n, heavy), op(A, 1n, heavy), op(A, 2n)])).toEqual([{ executor: E0, ops: [`${A}:0`] }]);
  });

  it("carries at most 4 operations naming a throttled paymaster in one bundle (SREP-030); the rest waits", () => {
    const P = "0xba".padEnd(42, "0");
    const paid = (sender: string) => ({ ...op(sender, 0n), paymaster: P }) as UserOperationRow;
    const senders = ["0x01", "0x02", "0x03", "0x04", "0x05", "0x06"].map((s) => s.padEnd(42, "0"));
    const bundles = splitBundles({
      pending: senders.map(paid),
      inFlight: [],
      executors: [E0],
      busy: new Set(),
      throttled: new Set([P]),
    });
    expect(bundles.map((bundle) => bundle.rows.length)).toEqual([4]);
    // Not throttled: all six in the one bundle.
    const free = splitBundles({ pending: senders.map(paid), inFlight: [], executors: [E0], busy: new Set() });
    expect(free.map((bundle) => bundle.rows.length)).toEqual([6]);
  });

  it("spends no paymaster's deposit twice over the run's parallel bundles: what it cannot cover waits", () => {
    const P = "0xba".padEnd(42, "0");
    const paid = (sender: string, nonce = 0n) =>
      ({ ...op(sender, nonce), paymaster: P, maxCharge: "100" }) as UserOperationRow;
    const plan = (budget?: bigint) =>
      splitBundles({
        pending: [paid(A), paid(B), paid(C), op(D, 0n)],
        inFlight: [],
        executors: [E0, E1],
        busy: new Set(),
        ...(budget !== undefined ? { paymasterBudgets: new Map([[P, budget]]) } : {}),
      }).map((bundle) => bundle.rows.map((row) => row.sender));
    // 250 wei covers two of the three 100-wei charges, over both bundles: A and B go out, C waits; D pays itself.
    expect(plan(250n).flat().sort()).toEqual([A, B, D].sort());
    expect(plan(300n).flat().sort()).toEqual([A, B, C, D].sort());
    expect(plan(99n).flat()).toEqual([D]);
    expect(plan().flat().sort()).toEqual([A, B, C, D].sort()); // no budget given: not limited here
  });

  it("fills an executor's bundle to the fill size before the next executor gets any", () => {
    const senders = ["0x01", "0x02", "0x03", "0x04", "0x05"].map((s) => s.padEnd(42, "0"));
    const plan = (fillSize: number) =>
      splitBundles({
        pending: senders.map((s) => op(s, 0n)),
        inFlight: [],
        executors: [E0, E1],
        busy: new Set(),
        fillSize,
      }).map((bundle) => [bundle.executor, bundle.rows.length]);
    expect(plan(16)).toEqual([[E0, 5]]); // a few operations: one bundle
    expect(plan(3)).toEqual([
      [E0, 3],
      [E1, 2],
    ]); // then the next executor
    expect(plan(1)).toEqual([
      [E0, 3],
      [E1, 2],
    ]); // spread: each to the least loaded
  });

  it("uses every executor given", () => {
    const three = splitBundles({
      pending: [op(A, 0n), op(B, 0n), op(C, 0n)],
      inFlight: [],
      executors: [E0, E1, E2],
      busy: new Set(),
    });
    expect(three.map((bundle) => bundle.executor)).toEqual([E0, E1, E2]);
  });
});
