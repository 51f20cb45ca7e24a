import { describe, expect, it } from "vitest";
import { mergeStateOverrides, StateOverrideSchema, toRpcStateOverride, toStateOverride } from "./state-override.ts";

const A = "0x00000000000000000000000000000000000000aa";
const word = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

describe("state overrides (eth_estimateUserOperationGas' third parameter)", () => {
  it("turns eth_call's format into viem's: quantities as numbers, storage as 32-byte words", () => {
    const rpc = StateOverrideSchema.parse({
      [A]: { balance: "0x10", nonce: "0x2", code: "0x6000", stateDiff: { "0x1": "0x5" } },
    });
    expect(toStateOverride(rpc)).toEqual([
      { address: A, balance: 16n, nonce: 2, code: "0x6000", stateDiff: [{ slot: word(1), value: word(5) }] },
    ]);
    expect(toStateOverride(undefined)).toEqual([]);
  });

  it("turns viem's form back into eth_call's (debug_traceCall takes that)", () => {
    const rpc = { [A]: { balance: "0x10", nonce: "0x2", code: "0x6000", stateDiff: { [word(1)]: word(5) } } };
    expect(toRpcStateOverride(toStateOverride(StateOverrideSchema.parse(rpc)))).toEqual(rpc);
    expect(toRpcStateOverride([{ address: A, state: [] }])).toEqual({ [A]: { state: {} } });
  });

  it("refuses state with stateDiff, and unknown fields", () => {
    expect(StateOverrideSchema.safeParse({ [A]: { state: {}, stateDiff: {} } }).success).toBe(false);
    expect(StateOverrideSchema.safeParse({ [A]: { storage: {} } }).success).toBe(false);
    expect(StateOverrideSchema.safeParse({ "0x12": {} }).success).toBe(false);
  });

  it("merges one override per address, later fields and slots winning", () => {
    const slot = (n: number, v: number) => ({ slot: word(n) as `0x${string}`, value: word(v) as `0x${string}` });
    const merged = mergeStateOverrides(
      [{ address: A, balance: 1n, code: "0x01", stateDiff: [slot(1, 1), slot(2, 2)] }],
      [{ address: A.toUpperCase().replace("0X", "0x") as `0x${string}`, balance: 5n, stateDiff: [slot(2, 9)] }],
    );
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ balance: 5n, code: "0x01", stateDiff: [slot(1, 1), slot(2, 9)] });
    // A later full `state` replaces the storage; a later stateDiff changes an earlier `state`.
    expect(
      mergeStateOverrides([{ address: A, stateDiff: [slot(1, 1)] }], [{ address: A, state: [slot(3, 3)] }]),
    ).toEqual([{ address: A, state: [slot(3, 3)] }]);
    expect(
      mergeStateOverrides([{ address: A, state: [slot(1, 1)] }], [{ address: A, stateDiff: [slot(1, 4)] }]),
    ).toEqual([{ address: A, state: [slot(1, 4)] }]);
  });
});
