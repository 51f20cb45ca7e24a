// An operation's checks before it may enter the mempool, shared by its acceptance (mempool.ts) and by the recovery
// of an acceptance a stopped process left unfinished (accepting.ts): first what needs no simulation (EIP-7702
// authorisation, hash, preVerificationGas, the row to write), then its validation by simulation.
import { type Hex, toHex } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { bundlerState } from "./bundler-state.ts";
import { assertAuthorizationApplies, assertEip7702Supported, isEip7702Factory, senderDelegation } from "./eip7702.ts";
import type { ServedEntryPoint } from "./entry-points.ts";
import { requiredPreVerificationGas } from "./gas.ts";
import { isQueued, validateBehindQueue } from "./queued-nonce.ts";
import type { NewOperation } from "./quick-insert.ts";
import { rpcError } from "./rpc-error.ts";
import type { BundlerSettings } from "./settings.ts";
import { simulateValidation, type ValidationResult } from "./simulation.ts";
import { authorizationOf, packed, type RpcUserOperation, toUserOperation, userOpHash } from "./user-operation.ts";
import { validationMode } from "./validation-mode.ts";

export type PreparedOperation = Awaited<ReturnType<typeof prepareOperation>>;

/** Refuses what is wrong without a simulation; answers the operation's forms, its hash and its mempool row. */
export async function prepareOperation(
  on: ServedChain,
  organizationId: string,
  rpcOp: RpcUserOperation,
  entryPoint: ServedEntryPoint,
) {
  assertEip7702Supported(rpcOp, entryPoint);
  const op = toUserOperation(rpcOp);
  const packedOp = packed(op);
  // An EIP-7702 sender: its authorisation must apply in the bundle; simulation and hash see its delegate.
  const authorization = authorizationOf(op);
  if (authorization) await assertAuthorizationApplies(on, op.sender, authorization);
  const delegation = await senderDelegation(on, op.sender, authorization, isEip7702Factory(rpcOp.factory));
  const hash: Hex = userOpHash(op, on.chainId, entryPoint, delegation.delegate);
  const required = requiredPreVerificationGas(packedOp, authorization !== undefined);
  if (op.preVerificationGas < required)
    throw rpcError("BUNDLER_INVALID_PARAMS", `preVerificationGas must be at least ${required}`, {
      field: "preVerificationGas",
    });
  const row: NewOperation = {
    userOpHash: hash,
    chainId: on.chainId,
    entryPoint: entryPoint.address.toLowerCase(),
    sender: op.sender.toLowerCase(),
    nonce: op.nonce.toString(),
    organizationId,
    userOperation: JSON.stringify(rpcOp),
    packedOperation: JSON.stringify(packedOp, (_, v) => (typeof v === "bigint" ? toHex(v) : v)),
    maxFeePerGas: op.maxFeePerGas.toString(),
    maxPriorityFeePerGas: op.maxPriorityFeePerGas.toString(),
  };
  return { rpcOp, op, packedOp, entryPoint, delegation, hash, row };
}

/** The operation's validation by simulation in the chain's mode; behind a predecessor still waiting here, as if that
 * one had run (looked up only when the chain refuses its nonce). Throws the ERC-7769 refusal. */
export function validateOperation(
  ctx: PluginContext<never, BundlerSettings>,
  on: ServedChain,
  prepared: PreparedOperation,
): Promise<ValidationResult> {
  const { op, packedOp, entryPoint, delegation } = prepared;
  const mode = validationMode(ctx.settings.BUNDLER_VALIDATION, ctx.config.chains, on.chainId);
  return validateBehindQueue(
    op.nonce,
    (queued) =>
      simulateValidation(on, bundlerState(ctx).validation, entryPoint, packedOp, queued, delegation.override, mode),
    () => isQueued(ctx, on.chainId, entryPoint.address, op.sender, op.nonce),
  );
}
