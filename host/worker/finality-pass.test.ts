import { describe, expect, it } from "vitest";
import { sortVerdicts } from "./finality-pass.ts";

describe("sortVerdicts", () => {
  it("puts each write where its decision sends it, the ones still watched nowhere", () => {
    const verdicts = sortVerdicts([
      { id: "a", decision: { action: "final" } },
      { id: "b", decision: { action: "watch" } },
      { id: "c", decision: { action: "reorged" } },
      { id: "d", decision: { action: "moved", blockNumber: 9n, transactionHash: "0xd" } },
      { id: "e", decision: { action: "final" } },
    ]);
    expect(verdicts).toEqual({
      final: ["a", "e"],
      reorged: ["c"],
      moved: [{ id: "d", blockNumber: 9n, transactionHash: "0xd" }],
    });
  });

  it("is empty for no writes", () => {
    expect(sortVerdicts([])).toEqual({ final: [], reorged: [], moved: [] });
  });
});
