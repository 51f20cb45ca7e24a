// How a simulation (EntryPointSimulations' simulateValidation, simulateHandleOp) reaches the EntryPoint. The release's
// simulations must run at the EntryPoint's address, in its storage (deposits, nonces), with their own functions
// reachable there (they call `this`). Where the chain has them deployed (the platform deploys each release's runtime
// beside the EntryPoints), a state override puts a 45-byte forwarding proxy (EIP-1167) at the EntryPoint's address:
// every call into it, the simulation's and its calls back, runs the simulations' code by delegation. Elsewhere (an
// older or given manifest) the override is their whole code: 21 KB sent, parsed and analysed with every call, which
// made an acceptance's eth_call about twice as long on anvil and its JSON the host's largest write.
import { type Address, concat, type Hex, type StateOverride } from "viem";
import { type ServedEntryPoint, simulationsOf } from "./entry-points.ts";
import { mergeStateOverrides } from "./state-override.ts";

/** An eth_call (or debug_traceCall) of a simulation: to the EntryPoint, with its state overrides. */
export interface SimulationCall {
  to: Address;
  data: Hex;
  stateOverride: StateOverride;
  /** The deployed simulations the EntryPoint's address forwards to, when it does. */
  delegatedTo?: Address;
}

/** EIP-1167's minimal proxy of `target`: every call runs `target`'s code by DELEGATECALL, its result or revert
 * returned as it is. */
export const forwardingProxy = (target: Address): Hex =>
  concat(["0x363d3d373d3d3d363d73", target, "0x5af43d82803e903d91602b57fd5bf3"]);

/**
 * The call running `data` (a simulation's calldata) at `entryPoint`, over `extra` state overrides (the caller's,
 * the sender's) and `entryPointState` (slots of the EntryPoint's storage set for the call). Ours win where both set
 * a field.
 */
export function simulationCall(
  entryPoint: ServedEntryPoint,
  data: Hex,
  extra: StateOverride = [],
  entryPointState: { slot: Hex; value: Hex }[] = [],
): SimulationCall {
  const code = entryPoint.simulations
    ? forwardingProxy(entryPoint.simulations)
    : simulationsOf(entryPoint.version).deployedBytecode;
  const state = entryPointState.length > 0 ? { stateDiff: entryPointState } : {};
  return {
    to: entryPoint.address,
    data,
    stateOverride: mergeStateOverrides(extra, [{ address: entryPoint.address, code, ...state }]),
    ...(entryPoint.simulations ? { delegatedTo: entryPoint.simulations } : {}),
  };
}
