// How a simulation (simulateValidation, simulateHandleOp) reaches the EntryPoint. Where the chain has the platform's
// simulations (contracts/bundler/, deployed beside the EntryPoints), the call is the EntryPoint's
// delegateAndRevert(simulations, call): their code runs in the EntryPoint's storage and address, and the EntryPoint
// reverts with DelegateAndRevert(success, returned). Elsewhere (an older or given manifest), the release's
// EntryPointSimulations code is put at the EntryPoint's address by a state override: 21 KB sent, parsed and analysed
// with every call, which made an acceptance's eth_call twice as long on anvil and its JSON the host's largest write.
import { type Address, decodeErrorResult, encodeFunctionData, type Hex, type StateOverride } from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { type ServedEntryPoint, simulationsOf } from "./entry-points.ts";
import { mergeStateOverrides } from "./state-override.ts";

/** An eth_call (or debug_traceCall) of a simulation: to the EntryPoint, with its state overrides. */
export interface SimulationCall {
  to: Address;
  data: Hex;
  stateOverride: StateOverride;
  /** The platform's simulations the EntryPoint delegates to, when it does. */
  delegatedTo?: Address;
}

/**
 * The call running `data` (a simulation's calldata) at `entryPoint`, over `extra` state overrides (the caller's,
 * the sender's) and `entryPointState` (slots of the EntryPoint's storage set for the call).
 */
export function simulationCall(
  entryPoint: ServedEntryPoint,
  data: Hex,
  extra: StateOverride = [],
  entryPointState: { slot: Hex; value: Hex }[] = [],
): SimulationCall {
  const state = entryPointState.length > 0 ? { stateDiff: entryPointState } : {};
  if (entryPoint.simulations)
    return {
      to: entryPoint.address,
      data: encodeFunctionData({
        abi: entryPoint08Abi, // delegateAndRevert and its error are the same in v0.7 and v0.8
        functionName: "delegateAndRevert",
        args: [entryPoint.simulations, data],
      }),
      stateOverride: mergeStateOverrides(
        extra,
        entryPointState.length > 0 ? [{ address: entryPoint.address, ...state }] : [],
      ),
      delegatedTo: entryPoint.simulations,
    };
  const code = simulationsOf(entryPoint.version).deployedBytecode;
  return {
    to: entryPoint.address,
    data,
    // The caller's overrides first: ours (the simulations' code, the EntryPoint's slots) win where both set a field.
    stateOverride: mergeStateOverrides(extra, [{ address: entryPoint.address, code, ...state }]),
  };
}

/** What a simulation returned (`success`) or reverted with, from the call's own outcome: a delegated call's
 * DelegateAndRevert is unwrapped. */
export function simulationOutcome(
  call: SimulationCall,
  outcome: { success: boolean; data: Hex },
): { success: boolean; data: Hex } {
  if (!call.delegatedTo || outcome.success) return outcome;
  try {
    const decoded = decodeErrorResult({ abi: entryPoint08Abi, data: outcome.data });
    if (decoded.errorName === "DelegateAndRevert") {
      const [success, returned] = decoded.args as readonly [boolean, Hex];
      return { success, data: returned };
    }
  } catch {
    // not the EntryPoint's DelegateAndRevert (e.g. it ran out of gas): the revert as it came
  }
  return outcome;
}
