// smart-wallets:execute, one run per (chain, wallet) at a time: each QUEUED request of the wallet becomes its user
// operation (built once and stored, so a retry sends the same operation), signed by the wallet owner's custody keys;
// with enough weight it goes to the pool (the bundler) and the request is CONFIRMING, below the threshold it waits in
// PENDING_APPROVAL for co-signers (approval-routes.ts). The operation's own nonce key means the EntryPoint runs it
// at most once, whatever happens to this run.
import type { Address, Hex } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { UserOperationRejected } from "../../host/chain/user-operation-pool.ts";
import type { TransactionRequestRow } from "../../host/db/platform-types.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { updateRequest } from "../../host/worker/deps.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";
import { signAsParticipant, weigh } from "./approvals.ts";
import { confirmJob, WalletRunPayload } from "./jobs.ts";
import { type SmartWalletOperationRow, walletsDb } from "./tables.ts";
import { buildUserOperation, packSignatures } from "./user-operation.ts";
import { liveSigners, organisationPaymaster, smartWalletDeployment, sponsorship } from "./wallet-chain.ts";

/** ERC-7769's -32504: the sender has too many operations waiting; the request stays queued and is tried again. */
const THROTTLED = -32504;

/** The request's stored operation, or a new one built on its chain and stored (the first store wins a race). */
async function operationFor(
  ctx: PluginContext<"custody" | "userOperationPool">,
  on: ServedChain,
  request: TransactionRequestRow,
  signerCount: number,
) {
  const db = walletsDb(ctx.db.platform);
  const stored = await db
    .selectFrom("smartWalletOperations")
    .selectAll()
    .where("requestId", "=", request.id)
    .executeTakeFirst();
  if (stored) return stored;
  const { entryPoint } = smartWalletDeployment(on);
  const paymaster = await organisationPaymaster(on, await ctx.custody.primaryAddresses(request.organizationId));
  const sponsor = await sponsorship(on, paymaster, request.fromAddress as Address);
  const built = await buildUserOperation(ctx, on, {
    request,
    entryPoint,
    paymaster: sponsor.sponsored && sponsor.deposit > 0n ? paymaster : undefined,
    signerCount,
  });
  await db
    .insertInto("smartWalletOperations")
    .values({
      requestId: request.id,
      wallet: request.fromAddress,
      userOpHash: built.userOpHash.toLowerCase(),
      operation: JSON.stringify(built.operation),
      signatures: "{}",
    })
    .onConflict((oc) => oc.column("requestId").doNothing())
    .execute();
  return db
    .selectFrom("smartWalletOperations")
    .selectAll()
    .where("requestId", "=", request.id)
    .executeTakeFirstOrThrow();
}

/** Sends the signed operation to the pool; CONFIRMING when accepted, FAILED when refused (not when throttled). */
export async function sendOperation(
  ctx: PluginContext<"userOperationPool">,
  request: TransactionRequestRow,
  op: SmartWalletOperationRow,
) {
  const pool = ctx.userOperationPool;
  const signed = { ...op.operation, signature: packSignatures(op.signatures) } as never;
  // Marks the request as signed while it is still QUEUED: a cancellation that comes later finds it signed (409).
  const marked = await ctx.db.platform
    .updateTable("transactionRequests")
    .set({ rawTransaction: JSON.stringify(signed), subStatus: "USER_OPERATION_SIGNED", updatedAt: new Date() })
    .where("id", "=", request.id)
    .where("status", "=", "QUEUED")
    .returning("id")
    .executeTakeFirst();
  if (!marked) return;
  try {
    await pool.send(request.chainId, request.organizationId, signed);
  } catch (error) {
    if (!(error instanceof UserOperationRejected) || error.code === THROTTLED) throw error;
    await updateRequest(
      ctx.db.platform,
      request.id,
      { status: "FAILED", subStatus: "USER_OPERATION_REJECTED", errorMessage: error.message },
      "QUEUED",
    );
    return;
  }
  await updateRequest(
    ctx.db.platform,
    request.id,
    { status: "CONFIRMING", subStatus: "USER_OPERATION_SENT" },
    "QUEUED",
  );
  await addKeyedJob(ctx.db.platform, confirmJob(request.chainId, request.fromAddress));
}

export function executeTask(ctx: PluginContext<"custody" | "userOperationPool">) {
  return defineTask(WalletRunPayload, async ({ chainId, wallet }) => {
    const owner = await walletsDb(ctx.db.platform)
      .selectFrom("smartWallets")
      .select(["participantId", "organizationId"])
      .where("chainId", "=", chainId)
      .where("address", "=", wallet)
      .executeTakeFirst();
    const queued = await ctx.db.platform
      .selectFrom("transactionRequests")
      .selectAll()
      .where("status", "=", "QUEUED")
      .where("chainId", "=", chainId)
      .where("fromAddress", "=", wallet)
      .where("executor", "=", "smart-wallet")
      .orderBy("createdAt")
      .execute();
    if (queued.length === 0) return;
    const on = ctx.chains.get(chainId);
    // The signer set as on chain now: nothing this run sends is mined before it ends.
    const live = await liveSigners(on, wallet as Address);
    const { signers } = live;
    for (const request of queued) {
      const op = await operationFor(ctx, on, request, signers.length);
      if (owner) {
        const unsigned = signers.map((s) => s.address).filter((address) => op.signatures[address] === undefined);
        const added = await signAsParticipant(ctx, {
          organizationId: request.organizationId,
          userId: owner.participantId,
          requestId: request.id,
          userOpHash: op.userOpHash as Hex,
          signers: unsigned,
        });
        if (added.length) Object.assign(op, await reload(ctx, request.id));
      }
      const state = weigh(live, op.signatures);
      if (state.weight >= state.threshold) await sendOperation(ctx, request, op);
      else
        await updateRequest(
          ctx.db.platform,
          request.id,
          { status: "PENDING_APPROVAL", subStatus: "AWAITING_SIGNATURES" },
          "QUEUED",
        );
    }
  });
}

function reload(ctx: PluginContext, requestId: string) {
  return walletsDb(ctx.db.platform)
    .selectFrom("smartWalletOperations")
    .selectAll()
    .where("requestId", "=", requestId)
    .executeTakeFirstOrThrow();
}
