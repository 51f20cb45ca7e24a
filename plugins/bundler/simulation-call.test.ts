import { type Address, decodeFunctionData, encodeErrorResult, type Hex } from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { describe, expect, it } from "vitest";
import { simulationsOf } from "./entry-points.ts";
import { type CallFrame, simulationFrame } from "./opcode-rules.ts";
import { simulationCall, simulationOutcome } from "./simulation-call.ts";

const ENTRY_POINT: Address = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
const SIMULATIONS: Address = "0x00000000000000000000000000000000000051A7"; // checksummed, as viem decodes it
const SENDER: Address = "0x00000000000000000000000000000000000000aa";
const SLOT = { slot: `0x${"1".padStart(64, "0")}` as Hex, value: `0x${"2".padStart(64, "0")}` as Hex };
const delegateAndRevert = (success: boolean, data: Hex) =>
  encodeErrorResult({ abi: entryPoint08Abi, errorName: "DelegateAndRevert", args: [success, data] });

describe("a simulation's call (simulation-call.ts)", () => {
  it("delegates to the platform's simulations where the chain has them, without their code", () => {
    const call = simulationCall(
      { address: ENTRY_POINT, version: "0.8", simulations: SIMULATIONS },
      "0x1234",
      [{ address: SENDER, code: "0xef0100" }],
      [SLOT],
    );
    expect(call.to).toBe(ENTRY_POINT);
    expect(call.delegatedTo).toBe(SIMULATIONS);
    expect(decodeFunctionData({ abi: entryPoint08Abi, data: call.data })).toEqual({
      functionName: "delegateAndRevert",
      args: [SIMULATIONS, "0x1234"],
    });
    expect(call.stateOverride).toEqual([
      { address: SENDER, code: "0xef0100" },
      { address: ENTRY_POINT, stateDiff: [SLOT] },
    ]);
    expect(
      simulationCall({ address: ENTRY_POINT, version: "0.8", simulations: SIMULATIONS }, "0x12").stateOverride,
    ).toEqual([]);
  });

  it("puts the release's simulations at the EntryPoint's address where the chain has none", () => {
    const call = simulationCall({ address: ENTRY_POINT, version: "0.7" }, "0x1234", [], [SLOT]);
    expect({ data: call.data, delegatedTo: call.delegatedTo }).toEqual({ data: "0x1234", delegatedTo: undefined });
    expect(call.stateOverride).toEqual([
      { address: ENTRY_POINT, code: simulationsOf("0.7").deployedBytecode, stateDiff: [SLOT] },
    ]);
  });

  it("unwraps the EntryPoint's DelegateAndRevert into what the simulation returned or reverted with", () => {
    const delegated = simulationCall({ address: ENTRY_POINT, version: "0.8", simulations: SIMULATIONS }, "0x12");
    expect(simulationOutcome(delegated, { success: false, data: delegateAndRevert(true, "0xabcd") })).toEqual({
      success: true,
      data: "0xabcd",
    });
    expect(simulationOutcome(delegated, { success: false, data: delegateAndRevert(false, "0x08c379a0") })).toEqual({
      success: false,
      data: "0x08c379a0",
    });
    // Another revert (the EntryPoint's own failure) and the override's plain outcomes come through as they are.
    expect(simulationOutcome(delegated, { success: false, data: "0xdeadbeef" })).toEqual({
      success: false,
      data: "0xdeadbeef",
    });
    const overridden = simulationCall({ address: ENTRY_POINT, version: "0.8" }, "0x12");
    const revert = delegateAndRevert(true, "0xabcd");
    expect(simulationOutcome(overridden, { success: false, data: revert })).toEqual({ success: false, data: revert });
  });

  it("reads a delegated trace as the release's: the simulation's frame is the EntryPoint's, its self-call too", () => {
    const simulations = SIMULATIONS.toLowerCase(); // traces and TracedCall name addresses in lowercase
    const check: CallFrame = { type: "STATICCALL", to: simulations, input: "0x01", error: "execution reverted" };
    const account: CallFrame = { type: "CALL", to: SENDER, input: "0x19822f7c", output: "0x00" };
    const top: CallFrame = {
      type: "CALL",
      to: ENTRY_POINT.toLowerCase(),
      input: "0x850aaf62",
      output: "0x99410554",
      error: "execution reverted",
      calls: [{ type: "DELEGATECALL", to: simulations, input: "0xc3bce009", output: "0x20", calls: [check, account] }],
    };
    const call = { to: ENTRY_POINT, data: "0x" as Hex, stateOverrides: {}, delegatedTo: simulations };
    expect(simulationFrame(top, call)).toEqual({
      type: "CALL",
      to: ENTRY_POINT.toLowerCase(),
      input: "0xc3bce009",
      output: "0x20",
      calls: [{ ...check, to: ENTRY_POINT.toLowerCase() }, account],
    });
    // Not delegated, or the delegation never ran: the trace as it is.
    expect(simulationFrame(top, { ...call, delegatedTo: undefined })).toBe(top);
    expect(simulationFrame({ ...top, calls: [] }, call)).toEqual({ ...top, calls: [] });
  });
});
