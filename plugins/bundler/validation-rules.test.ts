import { describe, expect, it } from "vitest";
import { findBannedOpcode, isStaked, type StructLog } from "./validation-rules.ts";

const EP = "0x4337084d9e255ff0702461cf8895ce9e3b5ff108";
const ACCOUNT = "0x00000000000000000000000000000000000000aa";
const LIB = "0x00000000000000000000000000000000000000bb";
const call = (op: string, depth: number, target: string): StructLog => ({ op, depth, stack: [target, "0x5208"] });

describe("ERC-7562 opcode rules on a struct-log trace", () => {
  it("lets the EntryPoint read the environment, not the account", () => {
    const trusted = new Set([EP]);
    const clean: StructLog[] = [
      { op: "NUMBER", depth: 1 },
      call("CALL", 1, ACCOUNT),
      { op: "CALLER", depth: 2 },
      { op: "STOP", depth: 2 },
      { op: "TIMESTAMP", depth: 1 },
    ];
    expect(findBannedOpcode(clean, EP, trusted)).toBeUndefined();
    const dirty: StructLog[] = [call("CALL", 1, ACCOUNT), { op: "PUSH1", depth: 2 }, { op: "TIMESTAMP", depth: 2 }];
    expect(findBannedOpcode(dirty, EP, trusted)).toEqual({ opcode: "TIMESTAMP", address: ACCOUNT });
  });

  it("allows GAS only right before a call, and keeps a delegate call in its caller's frame", () => {
    const trusted = new Set([EP]);
    const gasForCall: StructLog[] = [
      call("CALL", 1, ACCOUNT),
      { op: "GAS", depth: 2 },
      call("STATICCALL", 2, "0x1"),
      { op: "POP", depth: 2 },
    ];
    expect(findBannedOpcode(gasForCall, EP, trusted)).toBeUndefined();
    const bareGas: StructLog[] = [call("CALL", 1, ACCOUNT), { op: "GAS", depth: 2 }, { op: "POP", depth: 2 }];
    expect(findBannedOpcode(bareGas, EP, trusted)?.opcode).toBe("GAS");
    const delegated: StructLog[] = [call("CALL", 1, ACCOUNT), call("DELEGATECALL", 2, LIB), { op: "NUMBER", depth: 3 }];
    expect(findBannedOpcode(delegated, EP, trusted)).toEqual({ opcode: "NUMBER", address: ACCOUNT });
  });

  it("without stacks, flags any frame below the EntryPoint (a full trace then says whose it was)", () => {
    const noStack: StructLog[] = [
      { op: "CALL", depth: 1 },
      { op: "TIMESTAMP", depth: 2 },
    ];
    expect(findBannedOpcode(noStack, EP, new Set([EP]))).toEqual({ opcode: "TIMESTAMP", address: "unknown" });
    expect(
      findBannedOpcode(
        [
          { op: "NUMBER", depth: 1 },
          { op: "CALL", depth: 1 },
          { op: "ADD", depth: 2 },
        ],
        EP,
        new Set([EP]),
      ),
    ).toBeUndefined();
  });

  it("tells a staked entity by the minimum stake and a day's unstake delay", () => {
    expect(isStaked({ stake: 10n ** 17n, unstakeDelaySec: 86_400n })).toBe(true);
    expect(isStaked({ stake: 10n ** 17n, unstakeDelaySec: 3_600n })).toBe(false);
    expect(isStaked({ stake: 0n, unstakeDelaySec: 86_400n })).toBe(false);
  });
});
