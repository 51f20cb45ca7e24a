import { describe, expect, it } from "vitest";
import { afterBatch, BATCH, broadcastAtOnce, gasWithMargin, outgoingOf, planNonces } from "./send-plan.ts";

describe("gasWithMargin", () => {
  it("adds 20% to the estimate, rounded down", () => {
    expect(gasWithMargin(100_000n)).toBe(120_000n);
    expect(gasWithMargin(21_001n)).toBe(25_201n);
  });
});

describe("planNonces", () => {
  const rows = [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }];
  const gas = new Map([
    ["a", 1n],
    ["c", 3n],
    ["d", 4n],
  ]);

  it("gives consecutive nonces from the first in the batch's order, and the next one after", () => {
    const plan = planNonces(rows, gas, new Set(["a", "b", "c", "d"]), 7);
    expect(plan.planned).toEqual([
      { id: "a", gas: 1n, nonce: 7 },
      { id: "c", gas: 3n, nonce: 8 },
      { id: "d", gas: 4n, nonce: 9 },
    ]);
    expect(plan.next).toBe(10);
  });

  it("skips a write whose estimate reverted (no gas) or that is no longer signable, leaving no nonce gap", () => {
    const plan = planNonces(rows, gas, new Set(["a", "d"]), 0);
    expect(plan.planned.map((p) => [p.id, p.nonce])).toEqual([
      ["a", 0],
      ["d", 1],
    ]);
    expect(plan.next).toBe(2);
  });

  it("keeps the first nonce as the next when nothing is signed", () => {
    expect(planNonces(rows, new Map(), new Set(), 5)).toEqual({ planned: [], next: 5 });
  });
});

describe("outgoingOf", () => {
  it("sends bytes signed before a crash first, as they are, then the writes just signed", () => {
    const resumed = [{ id: "old", rawTransaction: "0x01" }];
    const fresh = [{ id: "x" }, { id: "reverted" }, { id: "y" }];
    const signed = new Map<string, `0x${string}`>([
      ["y", "0x03"],
      ["x", "0x02"],
    ]);
    expect(outgoingOf(resumed, fresh, signed)).toEqual([
      { id: "old", raw: "0x01" },
      { id: "x", raw: "0x02" },
      { id: "y", raw: "0x03" },
    ]);
  });
});

describe("broadcastAtOnce", () => {
  it("sends one by one to a node that mines a block per transaction, or a single transaction", () => {
    expect(broadcastAtOnce(5, true)).toBe(false);
    expect(broadcastAtOnce(1, false)).toBe(false);
    expect(broadcastAtOnce(2, false)).toBe(true);
  });
});

describe("afterBatch", () => {
  it("continues while the batch read writes this run had not seen, within its budget", () => {
    expect(afterBatch({ unseen: 3, read: 3, overBudget: false })).toBe("continue");
  });

  it("stops when everything read was seen already (left QUEUED by a batch: the next run's)", () => {
    expect(afterBatch({ unseen: 0, read: 2, overBudget: false })).toBe("stop");
    expect(afterBatch({ unseen: 0, read: BATCH, overBudget: true })).toBe("stop");
  });

  it("past its budget, hands a full batch over to a fresh run and stops after a partial one", () => {
    expect(afterBatch({ unseen: BATCH, read: BATCH, overBudget: true })).toBe("hand-over");
    expect(afterBatch({ unseen: 4, read: 4, overBudget: true })).toBe("stop");
  });
});
