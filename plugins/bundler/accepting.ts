// Operations whose acceptance has not finished: the usual acceptance writes its row while the validation runs
// (quick-insert.ts), `accepting` until it passed. A bundling run takes none of them, nor an operation after one under
// its sender's nonce key (behind an unaccepted nonce it would fail its bundle's check). A row a stopped process left
// accepting (older than ACCEPTING_STALE_SECONDS) may already have had its hash answered: a bundling run validates it
// again, and marks it accepted or fails it with the refusal; a node that does not answer leaves it for the next run.
import { sql } from "kysely";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { ServedEntryPoint } from "./entry-points.ts";
import { type BundlerErrorCode, JSON_RPC_CODES } from "./errors.ts";
import { prepareOperation, validateOperation } from "./operation-check.ts";
import { markAccepted } from "./quick-insert.ts";
import type { BundlerSettings } from "./settings.ts";
import { bundlerDb, type UserOperationRow } from "./tables.ts";
import { RpcUserOperationSchema } from "./user-operation.ts";

/** Longer than any acceptance takes (a validation's traces included). */
export const ACCEPTING_STALE_SECONDS = 30;
/** How long a run sent at once (debug_bundler_sendBundleNow) waits for acceptances just answered to be marked. */
const SETTLE_WAIT_MS = 1_000;
const SETTLE_POLL_MS = 10;

type Row = Pick<UserOperationRow, "userOpHash" | "sender" | "accepting" | "createdAt">;

/**
 * The rows a bundle may take: not one still accepting, nor one after it under its sender's nonce key (its nonce would
 * not run); the sender's other keys are independent sequences and go on.
 */
export function withoutAccepting<R extends Pick<UserOperationRow, "sender" | "nonce" | "accepting">>(rows: R[]): R[] {
  const sequence = (row: R) => `${row.sender}:${BigInt(row.nonce) >> 64n}`;
  const firstAccepting = new Map<string, bigint>(); // sender and key -> the lowest nonce still accepting
  for (const row of rows)
    if (row.accepting) {
      const lowest = firstAccepting.get(sequence(row));
      if (lowest === undefined || BigInt(row.nonce) < lowest) firstAccepting.set(sequence(row), BigInt(row.nonce));
    }
  if (firstAccepting.size === 0) return rows;
  return rows.filter((row) => {
    const lowest = firstAccepting.get(sequence(row));
    return lowest === undefined || BigInt(row.nonce) < lowest;
  });
}

/**
 * An acceptance answers before its row is marked accepted (the mark and the wake follow it): a run sent at once right
 * after would leave that operation out. It waits (up to SETTLE_WAIT_MS) while the organisation has an operation
 * accepting for less than a second.
 */
export async function untilAcceptancesSettle(
  ctx: PluginContext<never, BundlerSettings>,
  scope: { chainId: number; organizationId: string },
): Promise<void> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  while (Date.now() < deadline) {
    const accepting = await bundlerDb(ctx.db.platform)
      .selectFrom("bundlerUserOperations")
      .select("userOpHash")
      .where("chainId", "=", scope.chainId)
      .where("organizationId", "=", scope.organizationId)
      .where("accepting", "=", true)
      .where("status", "=", "pending")
      .where("createdAt", ">", sql<Date>`now() - interval '1 second'`)
      .limit(1)
      .execute();
    if (accepting.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** Whether the validation refused the operation: the simulation's own answer, not a failed call to the node (a
 * refusal made from the node's error keeps it as its cause, simulation.ts). */
function isRefusal(error: unknown): error is ApiError {
  return (
    error instanceof ApiError && JSON_RPC_CODES[error.code as BundlerErrorCode] !== -32603 && error.cause === undefined
  );
}

/**
 * Validates again each of `pending` left accepting since before ACCEPTING_STALE_SECONDS; answers `pending` with
 * those accepted now marked so and those refused left out.
 */
export async function settleInterruptedAcceptances<
  R extends Row & Pick<UserOperationRow, "userOperation" | "organizationId">,
>(
  ctx: PluginContext<never, BundlerSettings>,
  on: ServedChain,
  entryPoint: ServedEntryPoint,
  pending: R[],
  now = Date.now(),
): Promise<R[]> {
  const stale = pending.filter(
    (row) => row.accepting && new Date(row.createdAt).getTime() < now - ACCEPTING_STALE_SECONDS * 1000,
  );
  if (stale.length === 0) return pending;
  const db = bundlerDb(ctx.db.platform);
  const settled = new Map<string, boolean>(); // hash -> accepted
  for (const row of stale) {
    try {
      const rpcOp = RpcUserOperationSchema.parse(row.userOperation);
      const validation = await validateOperation(
        ctx,
        on,
        await prepareOperation(on, row.organizationId, rpcOp, entryPoint),
      );
      await markAccepted(db, ctx.db.pool, row.userOpHash, validation.visitedCode);
      settled.set(row.userOpHash, true);
    } catch (error) {
      if (!isRefusal(error)) {
        ctx.logger.warn("bundler: an interrupted acceptance could not be validated again", {
          userOpHash: row.userOpHash,
          error: String(error),
        });
        continue;
      }
      await db
        .updateTable("bundlerUserOperations")
        .set({
          status: "failed",
          accepting: false,
          failureReason: `refused when validated again: ${error.message}`,
          updatedAt: new Date(),
        })
        .where("userOpHash", "=", row.userOpHash)
        .where("accepting", "=", true)
        .where("status", "=", "pending")
        .execute();
      settled.set(row.userOpHash, false);
    }
  }
  return pending.flatMap((row) => {
    const accepted = settled.get(row.userOpHash);
    if (accepted === undefined) return [row];
    return accepted ? [{ ...row, accepting: false }] : [];
  });
}
