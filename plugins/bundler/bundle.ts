// bundler:bundle: takes the organisation's pending operations on the job's chain, one EntryPoint's partition after the
// other (v0.8, then v0.7; a sender's in nonce order, oldest senders first), runs each as one handleOps by eth_call (an operation the EntryPoint refuses is marked failed), and
// submits the bundle with the gas its operations' limits add up to, a chain write of the organisation's bundler
// wallet through the transaction pipeline (host/worker: nonces, fee bumps, exactly once). The bundle's receipt marks
// them included (mutation kind `bundler.handle-ops`).
import { type Kysely, sql } from "kysely";
import { type Address, decodeEventLog, encodeFunctionData, getAddress, type Hex, type TransactionReceipt } from "viem";
import { entryPoint08Abi, type PackedUserOperation } from "viem/account-abstraction";
import type { StoredAuthorization } from "../../host/chain/authorizations.ts";
import { fundSigner } from "../../host/chain/fund-signer.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { MutationKind } from "../../host/mutations/service.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { addKeyedJobSql } from "../../host/worker/keyed-jobs.ts";
import { BundlePayload, bundleJob } from "./bundle-job.ts";
import { bundlerWallet } from "./bundler-wallet.ts";
import { delegationDesignator, toAuthorization } from "./eip7702.ts";
import { type ServedEntryPoint, servedEntryPoints } from "./entry-points.ts";
import { AUTHORIZATION_GAS } from "./gas.ts";
import { previousNonce } from "./queued-nonce.ts";
import { blamedEntity, countIncluded, penalize } from "./reputation.ts";
import { checkBundle } from "./simulation.ts";
import { type BundlerDb, type BundlerTables, bundlerDb, type UserOperationRow } from "./tables.ts";
import { type RpcUserOperation, toUserOperation } from "./user-operation.ts";

export const HANDLE_OPS_KIND = "bundler.handle-ops";
/** Operations one handleOps carries at most, and the gas it may ask (half of a 30M block: room for others). */
const MAX_BUNDLE = 64;
const MAX_BUNDLE_GAS = 15_000_000n;
/** A bundle transaction's own gas beyond its operations' limits (intrinsic cost, the EntryPoint's loops). */
const BUNDLE_BASE_GAS = 100_000n;

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

/**
 * The organisation's operations on the chain whose bundle ended without a receipt (refused at estimation, cancelled,
 * dead-lettered) are failed.
 */
async function settleAbandoned(ctx: PluginContext, chainId: number, organizationId: string) {
  const db = bundlerDb(ctx.db.platform);
  const abandoned = await db
    .selectFrom("bundlerUserOperations as o")
    .innerJoin("transactionRequests as r", "r.id", "o.transactionRequestId")
    .select(["o.userOpHash", "r.status", "r.errorMessage"])
    .where("o.chainId", "=", chainId)
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

/** The gas a bundle transaction gets: the operations' own limits (and their authorisations'), plus the transaction's
 * base and the loop's. */
function bundleGas(rows: UserOperationRow[]): bigint {
  return rows.reduce((sum, row) => {
    const op = toUserOperation(row.userOperation as RpcUserOperation);
    return (
      sum +
      (op.authorization ? AUTHORIZATION_GAS : 0n) +
      op.preVerificationGas +
      op.verificationGasLimit +
      op.callGasLimit +
      (op.paymasterVerificationGasLimit ?? 0n) +
      (op.paymasterPostOpGasLimit ?? 0n)
    );
  }, BUNDLE_BASE_GAS);
}

/**
 * The pending operations one bundle carries: each sender's in nonce order, each only after its predecessor (in this
 * bundle, or no longer waiting: one behind an unmined bundle waits for the next run), senders oldest first, within
 * the operation count and gas budget.
 */
export function bundleable(pending: UserOperationRow[], submitted: Pick<UserOperationRow, "sender" | "nonce">[]) {
  const key = (sender: string, nonce: bigint) => `${sender}:${nonce}`;
  const waiting = new Set([...pending, ...submitted].map((row) => key(row.sender, BigInt(row.nonce))));
  const bySender = new Map<string, UserOperationRow[]>();
  for (const row of pending) bySender.set(row.sender, [...(bySender.get(row.sender) ?? []), row]);
  const taken: UserOperationRow[] = [];
  let gas = BUNDLE_BASE_GAS;
  for (const [sender, rows] of bySender) {
    for (const row of rows.sort((a, b) => (BigInt(a.nonce) < BigInt(b.nonce) ? -1 : 1))) {
      const previous = previousNonce(BigInt(row.nonce));
      const free = previous === undefined || !waiting.has(key(sender, previous));
      const cost = bundleGas([row]) - BUNDLE_BASE_GAS;
      if (!free || taken.length === MAX_BUNDLE || gas + cost > MAX_BUNDLE_GAS) break;
      taken.push(row);
      gas += cost;
      waiting.delete(key(sender, BigInt(row.nonce))); // its successor may follow it in this bundle
    }
  }
  return taken;
}

export function bundleTask(ctx: PluginContext<"custody" | "deployment">) {
  return defineTask(BundlePayload, async ({ organizationId, chainId }) => {
    if (!ctx.chains.has(chainId)) throw new Error(`Chain ${chainId} is not served by this platform`);
    const on = ctx.chains.get(chainId);
    await settleAbandoned(ctx, chainId, organizationId);
    // Each EntryPoint's partition is its own bundle (handleOps runs one EntryPoint's operations).
    for (const entryPoint of servedEntryPoints(on.deployment))
      await bundlePartition(ctx, on, organizationId, entryPoint);
  });
}

/** One bundle of the organisation's operations for one EntryPoint on the chain, if any are ready. */
async function bundlePartition(
  ctx: PluginContext<"custody" | "deployment">,
  on: ServedChain,
  organizationId: string,
  entryPoint: ServedEntryPoint,
) {
  const db = bundlerDb(ctx.db.platform);
  const { chainId } = on;
  const reputationScope = { chainId, entryPoint: entryPoint.address.toLowerCase() };
  const fail = (hashes: string[], reason: string) =>
    db
      .updateTable("bundlerUserOperations")
      .set({ status: "failed", failureReason: reason, updatedAt: new Date() })
      .where("userOpHash", "in", hashes)
      .where("status", "=", "pending")
      .execute();
  const live = await db
    .selectFrom("bundlerUserOperations as o")
    .leftJoin("transactionRequests as r", "r.id", "o.transactionRequestId")
    .selectAll("o")
    .select("r.transactionHash as bundleHash")
    .where("o.chainId", "=", chainId)
    .where("o.entryPoint", "=", entryPoint.address.toLowerCase())
    .where("o.organizationId", "=", organizationId)
    .where("o.status", "in", ["pending", "submitted"])
    .orderBy("o.createdAt")
    .limit(MAX_BUNDLE * 8)
    .execute();
  // An operation in a bundle already signed runs before this one (the bundler wallet's lower nonce): its
  // successors may follow at once. Those in a bundle not yet signed wait for it.
  let candidates = bundleable(
    live.filter((row) => row.status === "pending"),
    live.filter((row) => row.status === "submitted" && row.bundleHash === null),
  );
  if (candidates.length === 0) return;
  const wallet = await bundlerWallet(ctx, organizationId);
  const opsOf = (rows: UserOperationRow[]) =>
    rows.map((row) => revive(row.packedOperation as unknown as PackedUserOperation));
  // The whole bundle is run by eth_call first (while the bundler wallet's gas money is made ready): an operation
  // the EntryPoint refuses now (FailedOp) is marked failed and the rest tried again; the chain never sees it.
  const [, gas] = await Promise.all([
    fundSigner(ctx, on, wallet),
    (async () => {
      while (candidates.length > 0) {
        const delegations = authorizationsOf(candidates).map((auth) => ({
          address: auth.authority,
          code: delegationDesignator(auth.address),
        }));
        const check = await checkBundle(on, entryPoint, opsOf(candidates), wallet, bundleGas(candidates), delegations);
        if (check.ok) return bundleGas(candidates);
        const refused = candidates[check.opIndex];
        // Its successors in this bundle cannot run without it: they wait (or fail) in a later run.
        await fail([refused.userOpHash], check.reason);
        // ERC-7562: the factory (AA1x) or paymaster (AA3x) that failed the bundle is banned, its operations dropped.
        const blamed = blamedEntity(check.reason, refused);
        if (blamed) await penalize(db, on, reputationScope, blamed, new Date());
        candidates = candidates.filter(
          (row) =>
            row !== refused &&
            row.sender !== refused.sender &&
            (blamed === undefined || (row.paymaster !== blamed && row.factory !== blamed)),
        );
      }
      return 0n;
    })(),
  ]);
  if (candidates.length === 0) return;
  const request = await ctx.mutations.submit({
    organizationId,
    chainId,
    kind: HANDLE_OPS_KIND,
    to: entryPoint.address,
    data: encodeFunctionData({ abi: entryPoint08Abi, functionName: "handleOps", args: [opsOf(candidates), wallet] }),
    from: wallet,
    gas,
    // EIP-7702 senders' authorisations: the bundle is a type-4 transaction that delegates them as it runs.
    authorizationList: authorizationsOf(candidates).map(({ authority: _, ...auth }) => auth),
    createdBy: "bundler",
  });
  await db
    .updateTable("bundlerUserOperations")
    .set({ status: "submitted", transactionRequestId: request.id, updatedAt: new Date() })
    .where(
      "userOpHash",
      "in",
      candidates.map((row) => row.userOpHash),
    )
    .where("status", "=", "pending")
    .execute();
  // Operations left behind (behind an unmined bundle, past the bundle's size) wait for the bundle's receipt.
}

/** The distinct EIP-7702 authorisations the rows carry, each with its authority (the operation's sender). */
function authorizationsOf(rows: UserOperationRow[]) {
  const bySignature = new Map<string, StoredAuthorization & { authority: Address }>();
  for (const row of rows) {
    const auth = (row.userOperation as RpcUserOperation).eip7702Auth;
    if (!auth) continue;
    const stored = toAuthorization(auth);
    bySignature.set(`${stored.r}${stored.s}`, { ...stored, authority: getAddress(row.sender) });
  }
  return [...bySignature.values()];
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
    // ERC-7562: each included operation's paymaster and factory count it. After the operations' rows, like
    // acceptance (a sender's rows, then its entities'): the two never wait on each other in a cycle.
    await countIncluded(
      trx as unknown as BundlerDb,
      { chainId: request.chainId, entryPoint: request.toAddress.toLowerCase() },
      events.map((e) => e.userOpHash),
      new Date(),
    );
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
