import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import { simulationsOf } from "./entry-points.ts";
import { type CallFrame, simulationFrame } from "./opcode-rules.ts";
import { forwardingProxy, simulationCall } from "./simulation-call.ts";

const ENTRY_POINT: Address = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
const SIMULATIONS: Address = "0x00000000000000000000000000000000000051a7";
const SENDER: Address = "0x00000000000000000000000000000000000000aa";
const SLOT = { slot: `0x${"1".padStart(64, "0")}` as Hex, value: `0x${"2".padStart(64, "0")}` as Hex };

describe("a simulation's call (simulation-call.ts)", () => {
  it("forwards the EntryPoint's address to the deployed simulations where the chain has them", () => {
    const call = simulationCall(
      { address: ENTRY_POINT, version: "0.8", simulations: SIMULATIONS },
      "0x1234",
      [{ address: SENDER, code: "0xef0100" }],
      [SLOT],
    );
    expect(call).toEqual({
      to: ENTRY_POINT,
      data: "0x1234",
      delegatedTo: SIMULATIONS,
      stateOverride: [
        { address: SENDER, code: "0xef0100" },
        { address: ENTRY_POINT, code: forwardingProxy(SIMULATIONS), stateDiff: [SLOT] },
      ],
    });
    // EIP-1167's 45 bytes, the target in the middle.
    expect(forwardingProxy(SIMULATIONS)).toBe(
      "0x363d3d373d3d3d363d7300000000000000000000000000000000000051a75af43d82803e903d91602b57fd5bf3",
    );
  });

  it("puts the release's whole simulations at the EntryPoint's address where the chain has none", () => {
    const call = simulationCall({ address: ENTRY_POINT, version: "0.7" }, "0x1234", [], [SLOT]);
    expect(call).toEqual({
      to: ENTRY_POINT,
      data: "0x1234",
      stateOverride: [{ address: ENTRY_POINT, code: simulationsOf("0.7").deployedBytecode, stateDiff: [SLOT] }],
    });
  });

  it("reads a forwarded trace as the release's: each call into the EntryPoint without its delegate call", () => {
    const entryPoint = ENTRY_POINT.toLowerCase(); // traces name addresses in lowercase
    const forwarded = (frame: CallFrame, calls?: CallFrame[]): CallFrame => ({
      ...frame,
      calls: [{ type: "DELEGATECALL", to: SIMULATIONS, input: frame.input, ...(calls ? { calls } : {}) }],
    });
    const check = forwarded({ type: "STATICCALL", to: entryPoint, input: "0x01", error: "execution reverted" });
    const deposit = forwarded({ type: "CALL", to: entryPoint, input: "0x", output: "0x" });
    const account: CallFrame = { type: "CALL", to: SENDER, input: "0x19822f7c", output: "0x00", calls: [deposit] };
    const top = forwarded({ type: "CALL", to: entryPoint, input: "0xc3bce009", output: "0x20" }, [check, account]);
    const call = { to: ENTRY_POINT, data: "0x" as Hex, stateOverrides: {}, delegatedTo: SIMULATIONS };
    expect(simulationFrame(top, call)).toEqual({
      type: "CALL",
      to: entryPoint,
      input: "0xc3bce009",
      output: "0x20",
      calls: [
        { type: "STATICCALL", to: entryPoint, input: "0x01", error: "execution reverted" },
        { ...account, calls: [{ type: "CALL", to: entryPoint, input: "0x", output: "0x" }] },
      ],
    });
    // Not forwarded: the trace as it is.
    expect(simulationFrame(top, { ...call, delegatedTo: undefined })).toBe(top);
  });
});
