import { describe, expect, it } from "vitest";
import { keyedNonce, laneNonces } from "./nonce-lanes.ts";

describe("laneNonces", () => {
  it("puts the key in the upper bits and the sequence in the lower 64", () => {
    expect(keyedNonce(3n, 2n)).toBe(3n * 2n ** 64n + 2n);
  });

  it("spreads operations over the keys round-robin, each key counting its own sequence from 0", () => {
    expect(laneNonces(5, 2, 1n)).toEqual([
      [keyedNonce(1n, 0n), keyedNonce(1n, 1n), keyedNonce(1n, 2n)],
      [keyedNonce(2n, 0n), keyedNonce(2n, 1n)],
    ]);
  });

  it("uses no more keys than operations", () => {
    expect(laneNonces(1, 4, 5n)).toEqual([[keyedNonce(5n, 0n)]]);
  });
});
