// The pool other plugins send user operations to (host/chain/user-operation-pool.ts): the same acceptance, estimate
// and lookups as the JSON-RPC methods, with the bundler's refusals as UserOperationRejected (their ERC-7769 code).
import type { Hex, TransactionReceipt } from "viem";
import { formatLog, formatTransactionReceipt } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import {
  type UserOperationOutcome,
  type UserOperationPool,
  UserOperationRejected,
} from "../../host/chain/user-operation-pool.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { type ServedEntryPoint, servedEntryPoints } from "./entry-points.ts";
import { type BundlerErrorCode, JSON_RPC_CODES } from "./errors.ts";
import { estimateUserOperationGas } from "./gas.ts";
import { userOperationReceipt } from "./lookups.ts";
import { acceptUserOperation } from "./mempool.ts";
import type { BundlerSettings } from "./settings.ts";
import { bundlerDb } from "./tables.ts";
import { type RpcUserOperation, toUserOperation } from "./user-operation.ts";

async function rejections<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = error instanceof ApiError ? JSON_RPC_CODES[error.code as BundlerErrorCode] : undefined;
    if (code !== undefined)
      throw new UserOperationRejected(code, (error as ApiError).message, (error as ApiError).details);
    throw error;
  }
}

/** Where an operation stands, on the chain its mempool row names; null for one the pool never accepted. */
async function outcomeOf(ctx: PluginContext<never, BundlerSettings>, hash: Hex): Promise<UserOperationOutcome | null> {
  const row = await bundlerDb(ctx.db.platform)
    .selectFrom("bundlerUserOperations")
    .select(["chainId", "status", "failureReason"])
    .where("userOpHash", "=", hash.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  if (row.status === "failed") return { state: "dropped", reason: row.failureReason ?? "dropped by the bundler" };
  if (row.status === "pending") return { state: "pending" };
  const mined = await userOperationReceipt(ctx, ctx.chains.get(row.chainId), hash);
  if (!mined) return { state: "pending" };
  return {
    state: "mined",
    success: mined.success,
    actualGasCost: BigInt(mined.actualGasCost),
    paymaster: mined.paymaster as Hex,
    reason: mined.reason as Hex,
    receipt: formatTransactionReceipt(mined.receipt) as TransactionReceipt,
    logs: mined.logs.map((log) => formatLog(log)) as TransactionReceipt["logs"],
  };
}

/** A served chain's EntryPoint v0.8 (the smart wallets'): a chain without one (a given manifest that names none) has
 * no pool. */
function entryPointOn(ctx: PluginContext, chainId: number): { on: ServedChain; entryPoint: ServedEntryPoint } {
  const on = ctx.chains.get(chainId);
  const entryPoint = servedEntryPoints(on.deployment).find((served) => served.version === "0.8");
  if (!entryPoint) throw new UserOperationRejected(-32602, `No EntryPoint is deployed on chain ${chainId}`);
  return { on, entryPoint };
}

/** The pool the host gives other plugins: each operation on the chain it names. */
export function userOperationPool(ctx: PluginContext<never, BundlerSettings>): UserOperationPool {
  return {
    send: (chainId, organizationId, operation) =>
      rejections(() => {
        const { on, entryPoint } = entryPointOn(ctx, chainId);
        return acceptUserOperation(ctx, on, organizationId, operation as RpcUserOperation, entryPoint);
      }),
    estimate: (chainId, operation) =>
      rejections(() => {
        const { on, entryPoint } = entryPointOn(ctx, chainId);
        return estimateUserOperationGas(ctx, on, entryPoint, toUserOperation(operation as RpcUserOperation));
      }),
    outcome: (hash) => outcomeOf(ctx, hash),
  };
}
