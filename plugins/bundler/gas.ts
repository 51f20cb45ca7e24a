// Gas for ERC-7769: the preVerificationGas an operation must carry (its share of the bundle transaction: the base
// cost and the calldata it adds) and eth_estimateUserOperationGas from one simulateHandleOp run (on the state the
// caller's override describes, if any).
import { encodeAbiParameters, type Hex, hexToBytes, type StateOverride, toHex } from "viem";
import { entryPoint08Abi, type PackedUserOperation, type UserOperation } from "viem/account-abstraction";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { isEip7702Factory, senderDelegation } from "./eip7702.ts";
import { PENALTY_THRESHOLD, type ServedEntryPoint } from "./entry-points.ts";
import { isQueued } from "./queued-nonce.ts";
import { simulateHandleOp } from "./simulation.ts";
import { mergeStateOverrides } from "./state-override.ts";
import { authorizationOf, packed } from "./user-operation.ts";

/** A transaction's base cost plus the EntryPoint's fixed overhead per operation (the reference bundler's figures). */
const PER_OPERATION_OVERHEAD = 21_000n + 18_300n;
/** What an EIP-7702 authorisation adds to its bundle transaction's intrinsic gas (EIP-7702's PER_EMPTY_ACCOUNT_COST). */
export const AUTHORIZATION_GAS = 25_000n;

const handleOps = entryPoint08Abi.find((item) => item.type === "function" && item.name === "handleOps");
/** One PackedUserOperation as handleOps' calldata carries it. */
const PACKED_OP = {
  type: "tuple",
  components: (handleOps!.inputs[0] as { components: readonly unknown[] }).components,
};

function encodedOp(op: PackedUserOperation): Uint8Array {
  return hexToBytes(encodeAbiParameters([PACKED_OP] as never, [op] as never));
}

/** The least preVerificationGas the bundler accepts for `op`: zero bytes at 4 gas, others at 16 (and its
 * authorisation's cost when it carries one). */
export function requiredPreVerificationGas(op: PackedUserOperation, withAuthorization = false): bigint {
  let gas = PER_OPERATION_OVERHEAD + (withAuthorization ? AUTHORIZATION_GAS : 0n);
  for (const byte of encodedOp(op)) gas += byte === 0 ? 4n : 16n;
  return gas;
}

/** What estimation returns: every byte at 16 gas, so the signed operation (other bytes, same length) passes. */
function estimatedPreVerificationGas(op: PackedUserOperation, withAuthorization: boolean): bigint {
  return PER_OPERATION_OVERHEAD + (withAuthorization ? AUTHORIZATION_GAS : 0n) + 16n * BigInt(encodedOp(op).length);
}

/** Generous limits for the simulation run; the estimate is what it used, with a margin. */
const SIMULATION_LIMITS = {
  verificationGasLimit: 2_000_000n,
  callGasLimit: 8_000_000n,
  paymasterVerificationGasLimit: 1_000_000n,
  paymasterPostOpGasLimit: 200_000n,
};
const withMargin = (gas: bigint, extra: bigint) => (gas * 13n) / 10n + extra;

export async function estimateUserOperationGas(
  ctx: PluginContext,
  on: ServedChain,
  entryPoint: ServedEntryPoint,
  op: UserOperation<"0.8">,
  callerOverride: StateOverride = [],
) {
  // An EIP-7702 sender runs its delegate's code (its authorisation's by override); the caller's override wins.
  const delegation = await senderDelegation(on, op.sender, authorizationOf(op), isEip7702Factory(op.factory));
  const stateOverride = mergeStateOverrides(delegation.override, callerOverride);
  const withPaymaster = op.paymaster !== undefined;
  const trial: UserOperation<"0.8"> = {
    ...op,
    ...SIMULATION_LIMITS,
    ...(withPaymaster ? {} : { paymasterVerificationGasLimit: undefined, paymasterPostOpGasLimit: undefined }),
    // One wei per gas: `paid` is then the gas the EntryPoint charged; the sender gets the balance to prefund it.
    maxFeePerGas: 1n,
    maxPriorityFeePerGas: 1n,
  };
  trial.preVerificationGas = estimatedPreVerificationGas(packed(trial), op.authorization !== undefined);
  const queued = await isQueued(ctx, on.chainId, entryPoint.address, op.sender, op.nonce);
  const result = await simulateHandleOp(on, entryPoint, packed(trial), 10n ** 24n, queued, stateOverride);
  const verification = result.preOpGas - trial.preVerificationGas;
  // paid = preOpGas + used + penalty, the penalty 10 % of (limit - used) when that exceeds the threshold.
  const limit = trial.callGasLimit + (withPaymaster ? trial.paymasterPostOpGasLimit! : 0n);
  const executed = result.paid - result.preOpGas;
  let used = (10n * executed - limit) / 9n;
  if (limit - used <= PENALTY_THRESHOLD[entryPoint.version]) used = executed;
  // A deployed sender's call measured on its own, as the EntryPoint makes it (the node's search for the least gas
  // that succeeds): the simulation's figure misses gas that only a failing limit reveals (e.g. the 63/64 rule).
  const overridden = stateOverride.find((account) => account.address.toLowerCase() === op.sender.toLowerCase());
  const code = overridden?.code ?? (await on.client.getCode({ address: op.sender }));
  if (code && code !== "0x") {
    const direct = await on.client
      .estimateGas({ account: entryPoint.address, to: op.sender, data: op.callData, stateOverride })
      .catch(() => 0n);
    if (direct > used) used = direct;
  }
  return {
    preVerificationGas: toHex(trial.preVerificationGas),
    verificationGasLimit: toHex(withMargin(verification, 20_000n)),
    callGasLimit: toHex(withMargin(used > 0n ? used : 0n, 10_000n)),
    ...(withPaymaster
      ? {
          paymasterVerificationGasLimit: toHex(withMargin(verification, 20_000n)),
          paymasterPostOpGasLimit: toHex(50_000n),
        }
      : {}),
  } satisfies Record<string, Hex>;
}
