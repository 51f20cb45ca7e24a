// POST /api/v2/smart-wallets: one wallet per participant and chain, deployed by a resumable job (deploy-task.ts).
import { createRoute, z } from "@hono/zod-openapi";
import { assertPermission, requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { waitForChange } from "../../host/db/wait-for-change.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { parsePrefer } from "../../host/http/prefer.ts";
import { errorResponses, jsonBody, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";
import { assertAccountAbstractionAllowed } from "./account-abstraction.ts";
import { allCustodyWallets } from "./custody-signers.ts";
import { deployJob } from "./jobs.ts";
import { requestedSigners } from "./requested-signers.ts";
import { CreateSmartWalletSchema, dataOf, SmartWalletSchema } from "./schemas.ts";
import { SMART_WALLET_CHANNEL, walletsDb } from "./tables.ts";
import { predictWalletAddress, walletSalt } from "./wallet-chain.ts";
import { findWallet, walletRecord } from "./wallet-query.ts";

const tags = ["smart wallets"];

const create = createRoute({
  method: "post",
  path: "/api/v2/smart-wallets",
  tags,
  summary: "Provision the acting participant's smart wallet (one per participant and chain)",
  description:
    "`{}` provisions a single-signer wallet whose signer is the participant's custody wallet. A repeat returns the same " +
    "wallet (and resumes a failed deployment). The deployment (sponsorship by the organisation's paymaster, the " +
    "account, the management key on the participant's identity, the identity registry entry) runs as a job: 202 " +
    "while it runs, 200 once deployed; `Prefer: wait=N` waits for it. Provisioning spends the organisation's gas: " +
    "it needs smartWallet:create (owner, admin, gasManager; others act for a participant with X-Participant), " +
    "ACCOUNT_ABSTRACTION_ENABLED and the organisation's executor policy allowing smart wallets (else 403 " +
    "X_EXECUTOR_AA_DISABLED_GLOBALLY / _FOR_ORG), and walletVerification from a session. The organisation's " +
    "paymaster sponsors the wallet only when all its signers are the organisation's custody wallets, or when " +
    "`sponsored: true` is asked by a holder of smartWallet:sponsor.",
  middleware: [requirePermission("smartWallet:create")],
  request: {
    body: jsonBody(CreateSmartWalletSchema, false),
    // Creation is idempotent per participant and chain whatever the key; Prefer is honoured (see above).
    headers: z.object({ "idempotency-key": z.string().max(255).optional(), prefer: z.string().optional() }),
  },
  responses: {
    200: jsonResponse(dataOf(SmartWalletSchema), "Deployed"),
    202: jsonResponse(dataOf(SmartWalletSchema), "Deploying: poll Location"),
    ...errorResponses,
  },
});

export function walletCreateRoute(app: App, ctx: PluginContext<"custody">) {
  const db = walletsDb(ctx.db.platform);

  app.openapi(create, async (c) => {
    const body = c.req.valid("json") ?? {};
    const { organizationId, roles } = c.get("principal");
    const participantId = c.get("requestContext").participantId;
    await assertAccountAbstractionAllowed(ctx, organizationId);
    const wanted = requestedSigners(body);
    await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
    const chain = await requestChain(c, ctx);
    // The participant's wallet on this chain (one at most): read before and after the creation below.
    const participantWallet = () =>
      db
        .selectFrom("smartWallets")
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where("chainId", "=", chain.chainId)
        .where("participantId", "=", participantId);
    const existing = await participantWallet().executeTakeFirst();
    let address = existing?.address;
    if (!existing) {
      const signers = wanted.signers ?? [
        {
          address: (await ctx.custody.provisionMemberWallet(organizationId, participantId)).toLowerCase(),
          weight: "1",
        },
      ];
      const custodyOnly = await allCustodyWallets(
        ctx,
        organizationId,
        signers.map((s) => s.address),
      );
      // Sponsoring a key the platform does not hold is the organisation's money in outside hands: a decision.
      if (body.sponsored && !custodyOnly) assertPermission(roles, "smartWallet:sponsor");
      const salt = walletSalt(organizationId, participantId);
      address = (await predictWalletAddress(chain, signers, wanted.threshold, salt)).toLowerCase();
      await db
        .insertInto("smartWallets")
        .values({
          address,
          organizationId,
          chainId: chain.chainId,
          participantId,
          validatorType: wanted.validatorType,
          description: body.description ?? null,
          signers: JSON.stringify(signers),
          threshold: wanted.threshold,
          salt: salt.toString(),
          sponsored: body.sponsored ?? custodyOnly,
          step: "sponsorship",
        })
        .onConflict((oc) => oc.columns(["organizationId", "chainId", "participantId"]).doNothing())
        .execute();
    } else if (existing.step === "failed") {
      // A repeat resumes a failed deployment at the step that failed, with fresh chain writes.
      await db
        .updateTable("smartWallets")
        .set((eb) => ({
          step: existing.failedStep ?? "sponsorship",
          failure: null,
          attempt: eb("attempt", "+", 1),
          updatedAt: new Date(),
        }))
        .where("chainId", "=", chain.chainId)
        .where("address", "=", existing.address)
        .where("step", "=", "failed")
        .execute();
    }
    const current = await participantWallet().executeTakeFirstOrThrow();
    if (current.step !== "deployed" && current.step !== "failed")
      await addKeyedJob(ctx.db.platform, deployJob(chain.chainId, current.address));
    const wait = parsePrefer(c.req.header("prefer")).waitSeconds;
    const wallet = await waitForChange({
      listener: ctx.db.listen(SMART_WALLET_CHANNEL),
      key: current.address,
      read: () => findWallet(ctx, organizationId, chain.chainId, current.address),
      done: (row) => row.step === "deployed" || row.step === "failed",
      deadline: Date.now() + (wait ?? 0) * 1000,
    });
    c.header("Location", `/api/v2/smart-wallets/${wallet.address}`);
    return c.json(single(c, walletRecord(wallet)), wallet.step === "deployed" ? 200 : 202);
  });
}
