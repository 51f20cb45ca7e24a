import { describe, expect, it } from "vitest";
import { refusedByNode } from "./rpc-errors.ts";

describe("refusedByNode", () => {
  it("is true for a method the node lacks or parameters it refuses, false for anything else", () => {
    expect(refusedByNode({ code: -32601 })).toBe(true);
    expect(refusedByNode({ code: -32602 })).toBe(true);
    expect(refusedByNode({ code: 3 })).toBe(false); // a revert
    expect(refusedByNode(new Error("socket hang up"))).toBe(false);
    expect(refusedByNode(undefined)).toBe(false);
  });
});
