// GET /api/v2/smart-wallets/{address}/approvals (operations waiting for signatures) and
// POST …/approvals/{userOpHash}/sign: the acting participant signs with its custody keys that are signers; once the
// weight reaches the threshold the request is queued again and its operation sent.
import { createRoute, z } from "@hono/zod-openapi";
import type { Address, Hex } from "viem";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";
import { approvalState, signAsParticipant, weigh } from "./approvals.ts";
import { executeJob } from "./jobs.ts";
import { ApprovalParams, ApprovalSchema, dataOf, SignApprovalBodySchema, WalletParams } from "./schemas.ts";
import { walletsDb } from "./tables.ts";
import { liveSigners } from "./wallet-chain.ts";
import { walletOfRequest } from "./wallet-query.ts";

const tags = ["smart wallets"];

const list = createRoute({
  method: "get",
  path: "/api/v2/smart-wallets/{address}/approvals",
  tags,
  summary: "The wallet's operations waiting for co-signers (PENDING_APPROVAL)",
  middleware: [requirePermission("smartWallet:read")],
  request: { params: WalletParams },
  responses: { 200: jsonResponse(dataOf(z.array(ApprovalSchema)), "Pending approvals"), ...errorResponses },
});

const sign = createRoute({
  method: "post",
  path: "/api/v2/smart-wallets/{address}/approvals/{userOpHash}/sign",
  tags,
  summary: "Sign a pending approval as a co-signer",
  description:
    "Signs the operation's userOpHash with each custody wallet of the acting participant that is a signer. Signing " +
    "again changes nothing. When the signatures reach the threshold the transaction request leaves PENDING_APPROVAL.",
  middleware: [requirePermission("smartWallet:operate")],
  request: { params: ApprovalParams, body: jsonBody(SignApprovalBodySchema, false) },
  responses: { 200: jsonResponse(dataOf(ApprovalSchema), "The approval after signing"), ...errorResponses },
});

export function approvalRoutes(app: App, ctx: PluginContext<"custody">) {
  const db = walletsDb(ctx.db.platform);

  /** The wallet's operations on the chain: those waiting for signatures, or the one of `userOpHash`. */
  const pending = (chainId: number, wallet: string, userOpHash?: string) =>
    db
      .selectFrom("smartWalletOperations as o")
      .innerJoin("transactionRequests as r", "r.id", "o.requestId")
      .select(["o.requestId", "o.userOpHash", "o.signatures", "r.kind", "r.status", "r.description", "r.createdAt"])
      .where("r.chainId", "=", chainId)
      .where("o.wallet", "=", wallet)
      .$if(userOpHash === undefined, (q) => q.where("r.status", "=", "PENDING_APPROVAL"))
      .$if(userOpHash !== undefined, (q) => q.where("o.userOpHash", "=", userOpHash!.toLowerCase()))
      .orderBy("o.createdAt")
      .execute();

  async function shape(chain: ServedChain, wallet: string, row: Awaited<ReturnType<typeof pending>>[number]) {
    const state = await approvalState(chain, wallet as Address, row.signatures);
    return {
      userOpHash: row.userOpHash,
      transactionId: row.requestId,
      kind: row.kind,
      status: row.status,
      description: row.description,
      threshold: state.threshold.toString(),
      weight: state.weight.toString(),
      signers: state.signers.map((s) => ({ address: s.address, weight: s.weight.toString(), signed: s.signed })),
      createdAt: row.createdAt.toISOString(),
    };
  }

  app.openapi(list, async (c) => {
    const { chain, wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    const rows = await pending(chain.chainId, wallet.address);
    return c.json(single(c, await Promise.all(rows.map((row) => shape(chain, wallet.address, row)))), 200);
  });

  app.openapi(sign, async (c) => {
    const { organizationId } = c.get("principal");
    const { address, userOpHash } = c.req.valid("param");
    const { chain, wallet } = await walletOfRequest(c, ctx, address);
    const [row] = await pending(chain.chainId, wallet.address, userOpHash);
    if (row?.status !== "PENDING_APPROVAL")
      throw new ApiError("SMART_WALLET_APPROVAL_NOT_FOUND", { details: { userOpHash } });
    await verifyWalletForWrite(c, ctx.db.platform, c.req.valid("json")?.walletVerification);
    const live = await liveSigners(chain, wallet.address as Address);
    const before = weigh(live, row.signatures);
    const signerAddresses = before.signers.map((s) => s.address);
    const participantId = c.get("requestContext").participantId;
    const own = await ctx.db.platform
      .selectFrom("wallets")
      .select("address")
      .where("organizationId", "=", organizationId)
      .where("userId", "=", participantId)
      .where("kind", "=", "eoa")
      .where("address", "in", signerAddresses.length ? signerAddresses : [""])
      .execute();
    if (own.length === 0) throw new ApiError("SMART_WALLET_SIGNER_REQUIRED", { details: { address: wallet.address } });
    await signAsParticipant(ctx, {
      organizationId,
      userId: participantId,
      requestId: row.requestId,
      userOpHash: row.userOpHash as Hex,
      signers: own.map((w) => w.address).filter((a) => row.signatures[a] === undefined),
    });
    const [signed] = await pending(chain.chainId, wallet.address, userOpHash);
    const after = weigh(live, signed!.signatures);
    if (after.weight >= after.threshold) {
      // Queued again: the wallet's run sends the operation (a cancellation meanwhile keeps it CANCELLED).
      const requeued = await ctx.db.platform
        .updateTable("transactionRequests")
        .set({ status: "QUEUED", subStatus: "APPROVED", updatedAt: new Date() })
        .where("id", "=", row.requestId)
        .where("status", "=", "PENDING_APPROVAL")
        .returning("id")
        .executeTakeFirst();
      if (requeued) await addKeyedJob(ctx.db.platform, executeJob(chain.chainId, wallet.address));
    }
    const [latest] = await pending(chain.chainId, wallet.address, userOpHash);
    return c.json(single(c, await shape(chain, wallet.address, latest!)), 200);
  });
}
