import { describe, expect, it } from "vitest";
import { METRICS } from "../../domain/statistics/metrics.ts";
import { cumulate } from "./counters.ts";

const { claimsIssued: issued, claimsActive: active } = METRICS;

describe("cumulative counters per bucket", () => {
  it("starts from the changes before the window and carries values through quiet buckets", () => {
    const totals = cumulate(
      [
        { metric: issued, bucket: -1, delta: 3 },
        { metric: active, bucket: -1, delta: 2 },
        { metric: issued, bucket: 1, delta: 2 },
        { metric: active, bucket: 1, delta: 1 },
        { metric: active, bucket: 3, delta: -2 },
      ],
      4,
      [issued, active],
    );
    expect(totals.map((t) => [t.get(issued), t.get(active)])).toEqual([
      [3, 2],
      [5, 3],
      [5, 3],
      [5, 1],
    ]);
  });

  it("gives zero for a counter without changes, and ignores changes past the window", () => {
    const totals = cumulate([{ metric: issued, bucket: 2, delta: 5 }], 2, [issued, active]);
    expect(totals.map((t) => [t.get(issued), t.get(active)])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
});
