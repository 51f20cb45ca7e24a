// bundler:bundle: takes the organisation's pending operations on the job's chain, one EntryPoint's partition after the
// other (v0.8, then v0.7), splits them over the organisation's executors (bundle-split.ts: a sender's all in one
// bundle, in nonce order, oldest senders first, idle executors first), claims each bundle's operations
// (bundle-claims.ts), runs each bundle as one handleOps by eth_call (an operation the EntryPoint refuses is marked
// failed), and submits the bundles at once with the gas their operations' limits add up to, each a chain write of
// its executor through the transaction pipeline (host/worker: nonces per signer, fee bumps, exactly once). A
// bundle's receipt marks its operations included (mutation kind `bundler.handle-ops`).
import { type Kysely, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { type Address, decodeEventLog, encodeFunctionData, getAddress, type Hex, type TransactionReceipt } from "viem";
import { entryPoint08Abi, type PackedUserOperation } from "viem/account-abstraction";
import type { StoredAuthorization } from "../../host/chain/authorizations.ts";
import { fundSigner } from "../../host/chain/fund-signer.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { MutationKind } from "../../host/mutations/service.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { settleInterruptedAcceptances, untilAcceptancesSettle, withoutAccepting } from "./accepting.ts";
import { bundleCandidates } from "./bundle-candidates.ts";
import {
  bundleIdempotencyKey,
  claimBundle,
  failInBundle,
  linkBundle,
  queuedBundleWrite,
  releaseFromBundle,
} from "./bundle-claims.ts";
import { BundlePayload, manualBundling, wakeAfterBundleSql } from "./bundle-job.ts";
import { untilWorthBundling } from "./bundle-pace.ts";
import { bundleGas, inBundleOrder, MAX_BUNDLE, splitBundles } from "./bundle-split.ts";
import { bundlerState } from "./bundler-state.ts";
import { bundlerExecutors } from "./bundler-wallet.ts";
import { withoutChangedCode } from "./code-hashes.ts";
import { delegationDesignator, toAuthorization } from "./eip7702.ts";
import { type ServedEntryPoint, servedEntryPoints } from "./entry-points.ts";
import { forgetCode } from "./opcode-rules.ts";
import { blamedEntity, countIncluded, penalize, stakeStatus } from "./reputation.ts";
import type { BundlerSettings } from "./settings.ts";
import { checkBundle } from "./simulation.ts";
import { type BundlerDb, type BundlerTables, bundlerDb, type UserOperationRow } from "./tables.ts";
import type { RpcUserOperation } from "./user-operation.ts";

export const HANDLE_OPS_KIND = "bundler.handle-ops";

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

export function bundleTask(ctx: PluginContext<"custody" | "deployment", BundlerSettings>) {
  return defineTask(BundlePayload, async ({ organizationId, chainId, now: asked }, helpers) => {
    // Only its first attempt runs as debug_bundler_sendBundleNow asked (whose wait has ended by a retry): a retry is
    // a run like any other, which bundles nothing while bundling is manual.
    const now = asked === true && helpers.job.attempts <= 1;
    if (!ctx.chains.has(chainId)) throw new Error(`Chain ${chainId} is not served by this platform`);
    const on = ctx.chains.get(chainId);
    const pace = {
      targetSize: ctx.settings.BUNDLER_BUNDLE_TARGET_SIZE,
      maxWaitMs: ctx.settings.BUNDLER_BUNDLE_MAX_WAIT_MS,
      fillWaitMs: ctx.settings.BUNDLER_BUNDLE_FILL_WAIT_MS,
    };
    if (!now) await untilWorthBundling(bundlerDb(ctx.db.platform), { chainId, organizationId }, pace);
    else await untilAcceptancesSettle(ctx, { chainId, organizationId });
    await settleAbandoned(ctx, chainId, organizationId);
    const executors = await bundlerExecutors(ctx, organizationId, ctx.settings.BUNDLER_EXECUTORS);
    // Each EntryPoint's partition is its own bundles (handleOps runs one EntryPoint's operations).
    for (const entryPoint of servedEntryPoints(on.deployment))
      await bundlePartition(ctx, on, organizationId, entryPoint, executors, now);
  });
}

/** The executors (lowercase) with a bundle not yet mined, on any EntryPoint of the chain. */
async function busyExecutors(db: BundlerDb, chainId: number, organizationId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom("bundlerUserOperations as o")
    .leftJoin("transactionRequests as r", "r.id", "o.transactionRequestId")
    .select(sql<string | null>`coalesce(o.executor, r.from_address)`.as("executor"))
    .distinct()
    .where("o.chainId", "=", chainId)
    .where("o.organizationId", "=", organizationId)
    .where("o.status", "=", "submitted")
    .execute();
  return new Set(rows.flatMap((row) => (row.executor ? [row.executor] : [])));
}

/**
 * The organisation's bundles for one EntryPoint on the chain: first those a crashed run claimed but did not queue,
 * then the ready operations split over the executors (bundle-split.ts), each bundle claimed, checked and queued from
 * its own executor, all at once.
 */
async function bundlePartition(
  ctx: PluginContext<"custody" | "deployment", BundlerSettings>,
  on: ServedChain,
  organizationId: string,
  entryPoint: ServedEntryPoint,
  executors: string[],
  now: boolean,
) {
  const db = bundlerDb(ctx.db.platform);
  const { chainId } = on;
  const live = await db
    .selectFrom("bundlerUserOperations as o")
    .leftJoin("transactionRequests as r", "r.id", "o.transactionRequestId")
    .selectAll("o")
    .select(["r.transactionHash as bundleHash", "r.fromAddress as requestFrom"])
    .where("o.chainId", "=", chainId)
    .where("o.entryPoint", "=", entryPoint.address.toLowerCase())
    .where("o.organizationId", "=", organizationId)
    .where("o.status", "in", ["pending", "submitted"])
    // A run woken in auto mode takes nothing once bundling is manual: read in the rows' own snapshot, so operations
    // accepted after the switch are never in a bundle debug_bundler_sendBundleNow did not ask for.
    .$if(!now, (query) => query.where(sql<boolean>`not ${manualBundling(chainId)}`))
    .orderBy("o.createdAt")
    .limit(MAX_BUNDLE * 8)
    .execute();
  type Live = (typeof live)[number];
  const submitted = live.filter((row) => row.status === "submitted");
  // Claimed by a run that stopped before its bundle's write was linked: that bundle is finished, not claimed anew.
  const orphans = new Map<string, { bundleId: string; executor: string; rows: Live[] }>();
  for (const row of submitted)
    if (row.transactionRequestId === null && row.bundleId && row.executor) {
      const orphan = orphans.get(row.bundleId) ?? { bundleId: row.bundleId, executor: row.executor, rows: [] };
      orphans.set(row.bundleId, { ...orphan, rows: [...orphan.rows, row] });
    }
  // An operation in a bundle already signed runs before its successors (its executor's lower nonce): they may
  // follow at once from the same executor. Those in a bundle not yet signed wait for it.
  // Operations still accepting (and their senders') wait; those a stopped acceptance left are settled first.
  const waiting = await settleInterruptedAcceptances(
    ctx,
    on,
    entryPoint,
    live.filter((row) => row.status === "pending"),
  );
  // [COD-010] An operation whose validated code changed since its acceptance is dropped (code-hashes.ts).
  const unchanged = await withoutChangedCode(db, on, withoutAccepting(waiting), (address) =>
    forgetCode(bundlerState(ctx).validation.opcodeRules, chainId, address),
  );
  const { pending, throttled } = await bundleCandidates(
    db,
    on,
    { chainId, entryPoint: entryPoint.address.toLowerCase() },
    unchanged,
  );
  const planned = splitBundles({
    pending,
    throttled,
    paymasterBudgets: await paymasterBudgets(on, entryPoint, pending, submitted),
    fillSize: ctx.settings.BUNDLER_BUNDLE_TARGET_SIZE,
    inFlight: submitted.map((row) => ({
      sender: row.sender,
      nonce: row.nonce,
      executor: row.executor ?? row.requestFrom ?? executors[0],
      signed: row.bundleHash !== null,
    })),
    executors,
    busy: await busyExecutors(db, chainId, organizationId),
  });
  const claimed = [];
  for (const bundle of planned) {
    const bundleId = uuidv7();
    const rows = await claimBundle(db, { bundleId, executor: bundle.executor, rows: bundle.rows });
    if (rows.length > 0) claimed.push({ bundleId, executor: bundle.executor, rows });
  }
  // An orphan's rows as its bundle carried them (a replaced predecessor is newer than its successor).
  const resumed = [...orphans.values()].map((orphan) => ({ ...orphan, rows: inBundleOrder(orphan.rows) }));
  const bundles = [...resumed, ...claimed];
  if (bundles.length === 0) return;
  // Gas money for each executor while the bundles are checked (awaited only by its own bundles' writes).
  const funded = new Map(
    [...new Set(bundles.map((bundle) => bundle.executor))].map((executor) => {
      const funding = fundSigner(ctx, on, getAddress(executor));
      funding.catch(() => {}); // its bundles await it; unwanted otherwise
      return [executor, funding] as const;
    }),
  );
  const sent = await Promise.allSettled(
    bundles.map((bundle) => sendBundle(ctx, on, organizationId, entryPoint, bundle, funded)),
  );
  const failure = sent.find((result) => result.status === "rejected");
  if (failure) throw failure.reason; // the job is retried: its claimed bundles are finished then (orphans above)
}

/**
 * What each pending operation's paymaster can still pay in this run: its deposit at the EntryPoint, less the maximum
 * charges of its operations in bundles not yet marked mined (a mined one's charge is counted twice then: the deposit
 * already paid it; such operations wait a run longer, never a bundle that reverts).
 */
async function paymasterBudgets(
  on: ServedChain,
  entryPoint: ServedEntryPoint,
  pending: UserOperationRow[],
  submitted: UserOperationRow[],
): Promise<Map<string, bigint>> {
  const paymasters = [...new Set(pending.flatMap((row) => (row.paymaster ? [row.paymaster] : [])))];
  const deposits = await Promise.all(
    paymasters.map((paymaster) =>
      on.client.readContract({
        address: entryPoint.address,
        abi: entryPoint08Abi, // balanceOf is the same in v0.7
        functionName: "balanceOf",
        args: [getAddress(paymaster)],
      }),
    ),
  );
  return new Map(
    paymasters.map((paymaster, i) => {
      const committed = submitted
        .filter((row) => row.paymaster === paymaster)
        .reduce((sum, row) => sum + BigInt(row.maxCharge ?? 0), 0n);
      return [paymaster, deposits[i]! - committed];
    }),
  );
}

/**
 * One claimed bundle: its write found (queued by a run that crashed before linking it) or its operations run by
 * eth_call as one handleOps (an operation the EntryPoint refuses is marked failed and the rest tried again; the chain
 * never sees it), then queued as the executor's chain write and linked to its operations.
 */
async function sendBundle(
  ctx: PluginContext<"custody" | "deployment">,
  on: ServedChain,
  organizationId: string,
  entryPoint: ServedEntryPoint,
  bundle: { bundleId: string; executor: string; rows: UserOperationRow[] },
  funded: Map<string, Promise<void>>,
) {
  const db = bundlerDb(ctx.db.platform);
  const { chainId } = on;
  const { bundleId } = bundle;
  const queued = await queuedBundleWrite(db, chainId, bundle.executor, bundleId);
  if (queued) return linkBundle(db, bundleId, queued);
  const executor = getAddress(bundle.executor);
  const reputationScope = { chainId, entryPoint: entryPoint.address.toLowerCase() };
  const opsOf = (rows: UserOperationRow[]) =>
    rows.map((row) => revive(row.packedOperation as unknown as PackedUserOperation));
  let candidates = bundle.rows;
  while (candidates.length > 0) {
    const delegations = authorizationsOf(candidates).map((auth) => ({
      address: auth.authority,
      code: delegationDesignator(auth.address),
    }));
    const check = await checkBundle(on, entryPoint, opsOf(candidates), executor, bundleGas(candidates), delegations);
    if (check.ok) break;
    const refused = candidates[check.opIndex];
    await failInBundle(db, bundleId, [refused.userOpHash], check.reason);
    // ERC-7562: the factory (AA1x; AA2x when staked, EREP-020) or paymaster (AA3x) that failed the bundle is banned,
    // its operations dropped.
    const factoryStaked =
      check.reason.startsWith("AA2") && refused.factory !== null
        ? (await stakeStatus(on, entryPoint.address, getAddress(refused.factory))).isStaked
        : false;
    const blamed = blamedEntity(check.reason, refused, factoryStaked);
    if (blamed) await penalize(db, on, reputationScope, blamed, new Date());
    const kept = candidates.filter(
      (row) =>
        row !== refused &&
        row.sender !== refused.sender &&
        (blamed === undefined || (row.paymaster !== blamed && row.factory !== blamed)),
    );
    // Its successors cannot run without it (and the blamed entity's operations are refused): back to the mempool,
    // to wait (or fail) in a later run.
    await releaseFromBundle(
      db,
      bundleId,
      candidates.filter((row) => row !== refused && !kept.includes(row)).map((row) => row.userOpHash),
    );
    candidates = kept;
  }
  if (candidates.length === 0) return;
  await funded.get(bundle.executor);
  const request = await ctx.mutations.submit({
    organizationId,
    chainId,
    kind: HANDLE_OPS_KIND,
    to: entryPoint.address,
    data: encodeFunctionData({
      abi: entryPoint08Abi,
      functionName: "handleOps",
      args: [opsOf(candidates), executor],
    }),
    from: executor,
    gas: bundleGas(candidates),
    // EIP-7702 senders' authorisations: the bundle is a type-4 transaction that delegates them as it runs.
    authorizationList: authorizationsOf(candidates).map(({ authority: _, ...auth }) => auth),
    idempotencyKey: bundleIdempotencyKey(bundleId),
    createdBy: "bundler",
  });
  await linkBundle(db, bundleId, request.id);
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
    if (waiting) await wakeAfterBundleSql(request.chainId, request.organizationId).execute(db);
  },
};
