// bundler:bundle: takes the organisation's pending operations (one per sender, oldest first), validates each again
// by simulation (a refused one is marked failed), and submits them as one handleOps, a chain write of the
// organisation's bundler wallet through the transaction pipeline (host/worker: nonces, fee bumps, exactly once). The
// bundle's receipt marks them included (mutation kind `bundler.handle-ops`).
import type { Task } from "graphile-worker";
import { type Kysely, sql } from "kysely";
import { type Address, decodeEventLog, encodeFunctionData, type Hex, type TransactionReceipt } from "viem";
import { entryPoint08Abi, type PackedUserOperation } from "viem/account-abstraction";
import { fundSigner } from "../../host/chain/fund-signer.ts";
import type { ApiError } from "../../host/errors/api-error.ts";
import type { MutationKind } from "../../host/mutations/service.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { addKeyedJobSql } from "../../host/worker/keyed-jobs.ts";
import { bundleJob } from "./bundle-job.ts";
import { bundlerWallet } from "./bundler-wallet.ts";
import { chainTime, simulateValidation } from "./simulation.ts";
import { type BundlerTables, bundlerDb, type UserOperationRow } from "./tables.ts";

export const HANDLE_OPS_KIND = "bundler.handle-ops";
/** Operations one handleOps carries at most. */
const MAX_BUNDLE = 16;

/** The UserOperationEvents of the EntryPoint in a receipt. */
export function userOperationEvents(receipt: Pick<TransactionReceipt, "logs">, entryPoint: string) {
  const events: { userOpHash: Hex; success: boolean }[] = [];
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== entryPoint.toLowerCase()) continue;
    try {
      const event = decodeEventLog({ abi: entryPoint08Abi, data: log.data, topics: log.topics });
      if (event.eventName === "UserOperationEvent")
        events.push({ userOpHash: event.args.userOpHash, success: event.args.success });
    } catch {
      // another event of the EntryPoint
    }
  }
  return events;
}

/** Operations whose bundle ended without a receipt (refused at estimation, cancelled, dead-lettered) are failed. */
async function settleAbandoned(ctx: PluginContext, organizationId: string) {
  const db = bundlerDb(ctx.db.platform);
  const abandoned = await db
    .selectFrom("bundlerUserOperations as o")
    .innerJoin("transactionRequests as r", "r.id", "o.transactionRequestId")
    .select(["o.userOpHash", "r.status", "r.errorMessage"])
    .where("o.organizationId", "=", organizationId)
    .where("o.status", "=", "submitted")
    .where(
      "r.status",
      "in",
      [...TERMINAL_STATES].filter((s) => s !== "COMPLETED"),
    )
    .execute();
  for (const row of abandoned) {
    await db
      .updateTable("bundlerUserOperations")
      .set({
        status: "failed",
        failureReason: `bundle ${row.status}: ${row.errorMessage ?? ""}`.trim(),
        updatedAt: new Date(),
      })
      .where("userOpHash", "=", row.userOpHash)
      .where("status", "=", "submitted")
      .execute();
  }
}

/** One pending operation per sender (a later nonce validates only after the earlier one ran), oldest first. */
function onePerSender(rows: UserOperationRow[]) {
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.sender) && seen.add(row.sender)).slice(0, MAX_BUNDLE);
}

export function bundleTask(ctx: PluginContext): Task {
  const db = bundlerDb(ctx.db.platform);
  return async (payload) => {
    const { organizationId, chainId } = payload as { organizationId: string; chainId: number };
    if (chainId !== ctx.chain.chainId) throw new Error(`Chain ${chainId} is not served by this platform`);
    await settleAbandoned(ctx, organizationId);
    const pending = await db
      .selectFrom("bundlerUserOperations")
      .selectAll()
      .where("chainId", "=", chainId)
      .where("organizationId", "=", organizationId)
      .where("status", "=", "pending")
      .orderBy("createdAt")
      .limit(MAX_BUNDLE * 4)
      .execute();
    const candidates = onePerSender(pending);
    if (candidates.length === 0) return;
    // Validated again side by side (one per sender, so none depends on another) against one reading of the chain's
    // time, while the bundler wallet (and its gas money) is made ready.
    const time = chainTime(ctx);
    const [checked, wallet] = await Promise.all([
      Promise.all(
        candidates.map(async (row) => {
          const op = row.packedOperation as unknown as PackedUserOperation;
          try {
            await simulateValidation(ctx, row.entryPoint as Address, revive(op), time);
            return row;
          } catch (error) {
            await db
              .updateTable("bundlerUserOperations")
              .set({ status: "failed", failureReason: (error as ApiError).message, updatedAt: new Date() })
              .where("userOpHash", "=", row.userOpHash)
              .execute();
            return undefined;
          }
        }),
      ),
      bundlerWallet(ctx, organizationId).then(async (wallet) => {
        await fundSigner(ctx, wallet);
        return wallet;
      }),
    ]);
    const valid = checked.filter((row): row is UserOperationRow => row !== undefined);
    if (valid.length === 0) return;
    const entryPoint = valid[0].entryPoint as Address;
    const request = await ctx.mutations.submit({
      organizationId,
      chainId,
      kind: HANDLE_OPS_KIND,
      to: entryPoint,
      data: encodeFunctionData({
        abi: entryPoint08Abi,
        functionName: "handleOps",
        args: [valid.map((row) => revive(row.packedOperation as unknown as PackedUserOperation)), wallet],
      }),
      from: wallet,
      createdBy: "bundler",
    });
    await db
      .updateTable("bundlerUserOperations")
      .set({ status: "submitted", transactionRequestId: request.id, updatedAt: new Date() })
      .where(
        "userOpHash",
        "in",
        valid.map((row) => row.userOpHash),
      )
      .where("status", "=", "pending")
      .execute();
    // Operations left behind (a second one of a sender, past the bundle's size) wait for the bundle's receipt.
  };
}

/** A stored PackedUserOperation's quantities as bigints again (JSON keeps them as strings). */
function revive(op: PackedUserOperation): PackedUserOperation {
  return { ...op, nonce: BigInt(op.nonce), preVerificationGas: BigInt(op.preVerificationGas) };
}

/** The bundle's chain write: its receipt marks the operations it carried included, and wakes the next run. */
export const handleOpsKind: MutationKind = {
  result(receipt, request) {
    return { userOperations: userOperationEvents(receipt, request.toAddress) };
  },
  async onCompleted(trx, request, result) {
    const db = trx as unknown as Kysely<BundlerTables>;
    const events = (result.userOperations ?? []) as { userOpHash: string }[];
    if (events.length > 0)
      await db
        .updateTable("bundlerUserOperations")
        .set({
          status: "included",
          transactionRequestId: request.id,
          transactionHash: request.transactionHash,
          updatedAt: new Date(),
        })
        .where(
          "userOpHash",
          "in",
          events.map((e) => e.userOpHash),
        )
        .execute();
    await db
      .updateTable("bundlerUserOperations")
      .set({ status: "failed", failureReason: "not executed by its bundle", updatedAt: new Date() })
      .where("transactionRequestId", "=", request.id)
      .where("status", "=", "submitted")
      .execute();
    const waiting = await db
      .selectFrom("bundlerUserOperations")
      .select("userOpHash")
      .where("organizationId", "=", request.organizationId)
      .where("chainId", "=", request.chainId)
      .where("status", "=", "pending")
      .limit(1)
      .executeTakeFirst();
    if (waiting) await sql`select ${addKeyedJobSql(bundleJob(request.chainId, request.organizationId))}`.execute(db);
  },
};
