// debug_bundler_sendBundleNow: runs the organisation's bundling on the request's chain now (whatever the mode) and
// answers the transaction hash of the bundle that carries the oldest operation waiting for one (pending, else claimed
// by a run that stopped before queuing its write: a bundle the run finishes first; with several executors the run's
// other bundles go out beside it) once the pipeline has signed it; one the run refuses when it validates it again,
// or holds back once it has ended (a throttled entity's, STO-041, a paymaster's deposit spent), gives way to the next
// oldest, so a bundle sent is always answered. null when the run bundled nothing: the mempool held nothing, or it held
// back everything it held.
import type { Hex } from "viem";
import { waitForChange } from "../../host/db/wait-for-change.ts";
import { TERMINAL_STATES, TRANSACTION_REQUEST_CHANNEL } from "../../host/mutations/wait-for-terminal.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { type JobOutcome, jobOutcome } from "../../host/worker/keyed-jobs.ts";
import { wakeBundler } from "./bundle-job.ts";
import { rpcError } from "./rpc-error.ts";
import { type BundlerDb, bundlerDb, USER_OPERATION_CHANNEL } from "./tables.ts";

const WAIT_MS = 20_000;
/** How often a pending operation's row is read again while the forced run may still bundle it. */
const RUN_POLL_MS = 200;
/** How many of the oldest waiting operations the answer may come from (more than a bundle holds). */
const CANDIDATES = 256;

/**
 * The organisation's operations waiting for a bundle on the chain, oldest first: pending, else (none pending) claimed
 * by a run that stopped before queuing its write. A run in progress claims operations too: a pending one, where there
 * is one, is never mistaken for such a claim.
 */
async function oldestWaiting(db: BundlerDb, chainId: number, organizationId: string): Promise<string[]> {
  const oldest = (status: "pending" | "submitted") =>
    db
      .selectFrom("bundlerUserOperations")
      .select("userOpHash")
      .where("chainId", "=", chainId)
      .where("organizationId", "=", organizationId)
      .where("status", "=", status)
      .$if(status === "submitted", (query) => query.where("transactionRequestId", "is", null))
      .orderBy("createdAt")
      .orderBy("userOpHash") // the same order for operations written in the same instant
      .limit(CANDIDATES)
      .execute();
  const pending = await oldest("pending");
  return (pending.length > 0 ? pending : await oldest("submitted")).map((row) => row.userOpHash);
}

export async function sendBundleNow(ctx: PluginContext, chainId: number, organizationId: string): Promise<Hex | null> {
  const db = bundlerDb(ctx.db.platform);
  const waiting = await oldestWaiting(db, chainId, organizationId);
  if (waiting.length === 0) return null;
  const run = await wakeBundler(ctx, chainId, organizationId, true);
  const deadline = Date.now() + WAIT_MS;
  let refusal: string | undefined;
  for (const userOpHash of waiting) {
    const row = await bundleOf(ctx, userOpHash, run, deadline);
    if (row.transactionHash) return row.transactionHash as Hex;
    if (row.status === "failed") {
      refusal ??= row.failureReason ?? "failed"; // refused by the run: the next oldest tells the bundle
      continue;
    }
    if (row.status === "pending" && row.run === "completed") continue; // held back by the run that ended
    if (row.status === "pending" && row.run === "failed")
      // Its error stays in the worker's log (it may name internals); the retry is a run like any other.
      throw rpcError("BUNDLER_INTERNAL_ERROR", "The bundling run failed before it sent this bundle");
    const ended = row.requestStatus && TERMINAL_STATES.has(row.requestStatus);
    throw rpcError(
      "BUNDLER_INTERNAL_ERROR",
      ended ? `The bundle's transaction ended ${row.requestStatus}, unsent` : "The bundle was not sent within 20 s",
    );
  }
  if (refusal !== undefined) throw rpcError("BUNDLER_USER_OPERATION_REJECTED", refusal);
  return null; // every operation held back
}

/**
 * The operation once bundled into a request and that request signed (or refused, or left pending by the run `run`
 * once that has ended, or the deadline passed). `run`: the forced run's job (none known: only the deadline ends a
 * wait for a pending operation).
 */
async function bundleOf(ctx: PluginContext, userOpHash: string, run: string | null, deadline: number) {
  /** The row, and (with `job`) the run's outcome, read first: once it has ended, the row read after shows all it did. */
  const read = (job: string | null) => async () => {
    const outcome: JobOutcome = job === null ? "open" : await jobOutcome(ctx.db.platform, job);
    const row = await bundlerDb(ctx.db.platform)
      .selectFrom("bundlerUserOperations as o")
      .leftJoin("transactionRequests as r", "r.id", "o.transactionRequestId")
      .select([
        "o.status",
        "o.failureReason",
        "o.transactionRequestId",
        "r.transactionHash",
        "r.status as requestStatus",
      ])
      .where("o.userOpHash", "=", userOpHash)
      .executeTakeFirstOrThrow();
    return { ...row, run: outcome };
  };
  // Bundled into a request (or refused, or held back), then that request signed: each wait woken by its row's change
  // (a held operation's row does not change: the fallback read sees its run ended). A bundle claims its operations
  // before it queues its request: claimed (submitted) without a request is not done yet.
  const row = await waitForChange({
    listener: ctx.db.listen(USER_OPERATION_CHANNEL),
    key: userOpHash,
    read: read(run),
    done: (op) =>
      op.status === "failed" ||
      op.status === "included" ||
      op.transactionRequestId !== null ||
      (op.status === "pending" && op.run !== "open"),
    deadline,
    fallbackMs: RUN_POLL_MS,
  });
  if (!row.transactionRequestId || row.transactionHash) return row;
  return waitForChange({
    listener: ctx.db.listen(TRANSACTION_REQUEST_CHANNEL),
    key: row.transactionRequestId,
    read: read(null), // bundled: the run's outcome no longer matters
    done: (op) => op.transactionHash !== null || op.status === "failed" || TERMINAL_STATES.has(op.requestStatus ?? ""),
    deadline,
  });
}
