// POST /api/v2/smart-wallets (one wallet per participant, deployed by a resumable job), GET one, its live signers
// and its gas status.
import { createRoute, z } from "@hono/zod-openapi";
import { type Address, getAddress, zeroAddress } from "viem";
import { assertPermission, requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { waitForChange } from "../../host/db/wait-for-change.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { parsePrefer } from "../../host/http/prefer.ts";
import { errorResponses, jsonBody, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";
import { assertAccountAbstractionAllowed } from "./account-abstraction.ts";
import { allCustodyWallets } from "./custody-signers.ts";
import { deployJob } from "./jobs.ts";
import {
  CreateSmartWalletSchema,
  dataOf,
  GasStatusSchema,
  isUint64FromOne,
  SignersSchema,
  SmartWalletSchema,
  WalletParams,
} from "./schemas.ts";
import { SMART_WALLET_CHANNEL, type WalletSigner, walletsDb } from "./tables.ts";
import { liveSigners, organisationPaymaster, predictWalletAddress, sponsorship, walletSalt } from "./wallet-chain.ts";
import { findWallet, walletOfRequest, walletRecord } from "./wallet-query.ts";

const WalletResponse = jsonResponse(dataOf(SmartWalletSchema), "The smart wallet");
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

const getOne = createRoute({
  method: "get",
  path: "/api/v2/smart-wallets/{address}",
  tags,
  summary: "A smart wallet of the organisation, with its deployment state",
  middleware: [requirePermission("smartWallet:read")],
  request: { params: WalletParams },
  responses: { 200: WalletResponse, ...errorResponses },
});

const signers = createRoute({
  method: "get",
  path: "/api/v2/smart-wallets/{address}/signers",
  tags,
  summary: "The wallet's signers and weights and its threshold, as on chain now",
  middleware: [requirePermission("smartWallet:read")],
  request: { params: WalletParams },
  responses: { 200: jsonResponse(dataOf(SignersSchema), "Signers"), ...errorResponses },
});

const gasStatus = createRoute({
  method: "get",
  path: "/api/v2/smart-wallets/{address}/gas-status",
  tags,
  summary: "The wallet's balance, whether a paymaster will pay its gas, whether the chain charges for gas",
  middleware: [requirePermission("smartWallet:read")],
  request: { params: WalletParams },
  responses: { 200: jsonResponse(dataOf(GasStatusSchema), "Gas status"), ...errorResponses },
});

interface CreationBody {
  validatorType?: "ecdsa" | "weighted-multisig";
  signers?: { address: string; weight?: string }[];
  threshold?: string;
}

/**
 * The signer set and threshold a creation body asks for, checked (a repeat's body too); `signers` is undefined for
 * the default, the participant's custody wallet.
 */
function requestedSigners(body: CreationBody): {
  validatorType: "ecdsa" | "weighted-multisig";
  signers?: WalletSigner[];
  threshold: string;
} {
  const validatorType = body.validatorType ?? (body.signers && body.threshold ? "weighted-multisig" : "ecdsa");
  if (validatorType === "ecdsa") {
    if ((body.signers?.length ?? 0) > 1 || (body.threshold !== undefined && body.threshold !== "1"))
      throw new ApiError("SMART_WALLET_SIGNERS_INVALID", {
        message: "An ecdsa wallet has one signer and threshold 1; use validatorType weighted-multisig for more",
      });
    const signer = body.signers?.[0]?.address;
    return {
      validatorType,
      signers: signer ? [{ address: signer.toLowerCase(), weight: "1" }] : undefined,
      threshold: "1",
    };
  }
  if (!body.signers?.length)
    throw new ApiError("SMART_WALLET_SIGNERS_INVALID", { message: "A weighted-multisig wallet needs signers" });
  if (body.threshold === undefined || !isUint64FromOne(body.threshold))
    throw new ApiError("SMART_WALLET_THRESHOLD_INVALID", { details: { threshold: body.threshold ?? null } });
  const list: WalletSigner[] = body.signers.map((s) => ({ address: s.address.toLowerCase(), weight: s.weight ?? "1" }));
  const seen = new Set<string>();
  for (const s of list) {
    if (s.address === zeroAddress || seen.has(s.address))
      throw new ApiError("SMART_WALLET_SIGNERS_INVALID", {
        message: `Signer ${s.address} is the zero address or listed twice`,
        details: { signer: s.address },
      });
    seen.add(s.address);
  }
  const total = list.reduce((sum, s) => sum + BigInt(s.weight), 0n);
  if (BigInt(body.threshold) > total)
    throw new ApiError("SMART_WALLET_SIGNERS_INVALID", {
      message: `The threshold ${body.threshold} is more than the signers' total weight ${total}`,
      details: { threshold: body.threshold, totalWeight: total.toString() },
    });
  return { validatorType, signers: list, threshold: body.threshold };
}

export function walletRoutes(app: App, ctx: PluginContext<"custody">) {
  const db = walletsDb(ctx.db.platform);

  app.openapi(create, async (c) => {
    const body = c.req.valid("json") ?? {};
    const { organizationId, roles } = c.get("principal");
    const participantId = c.get("requestContext").participantId;
    await assertAccountAbstractionAllowed(ctx, organizationId);
    const wanted = requestedSigners(body);
    await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
    const chain = await requestChain(c, ctx);
    const existing = await db
      .selectFrom("smartWallets")
      .selectAll()
      .where("organizationId", "=", organizationId)
      .where("chainId", "=", chain.chainId)
      .where("participantId", "=", participantId)
      .executeTakeFirst();
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
    const current = await db
      .selectFrom("smartWallets")
      .selectAll()
      .where("organizationId", "=", organizationId)
      .where("chainId", "=", chain.chainId)
      .where("participantId", "=", participantId)
      .executeTakeFirstOrThrow();
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

  app.openapi(getOne, async (c) => {
    const { wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    return c.json(single(c, walletRecord(wallet)), 200);
  });

  app.openapi(signers, async (c) => {
    const { organizationId } = c.get("principal");
    const { chain, wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    if (wallet.step !== "deployed" && !(await chain.client.getCode({ address: wallet.address as Address })))
      return c.json(
        single(c, {
          threshold: String(wallet.threshold),
          totalWeight: wallet.signers.reduce((sum, s) => sum + BigInt(s.weight), 0n).toString(),
          signers: wallet.signers.map((s) => ({ ...s, participantId: null })),
        }),
        200,
      );
    const live = await liveSigners(chain, wallet.address as Address);
    const owners = await ctx.db.platform
      .selectFrom("wallets")
      .select(["address", "userId"])
      .where("organizationId", "=", organizationId)
      .where("address", "in", live.signers.length ? live.signers.map((s) => s.address) : [""])
      .execute();
    const ownerOf = new Map(owners.map((o) => [o.address, o.userId]));
    return c.json(
      single(c, {
        threshold: live.threshold.toString(),
        totalWeight: live.signers.reduce((sum, s) => sum + s.weight, 0n).toString(),
        signers: live.signers.map((s) => ({
          address: getAddress(s.address),
          weight: s.weight.toString(),
          participantId: ownerOf.get(s.address) ?? null,
        })),
      }),
      200,
    );
  });

  app.openapi(gasStatus, async (c) => {
    const { organizationId } = c.get("principal");
    const { chain, wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    const address = wallet.address as Address;
    const paymaster = await organisationPaymaster(chain, await ctx.custody.primaryAddress(organizationId));
    const [balance, sponsor, fees] = await Promise.all([
      chain.client.getBalance({ address }),
      sponsorship(chain, paymaster, address),
      chain.client.estimateFeesPerGas(),
    ]);
    // Enough deposit: what an operation of a million gas at today's fee may cost at most.
    const enough = sponsor.deposit >= 1_000_000n * fees.maxFeePerGas;
    return c.json(
      single(c, {
        balance: balance.toString(),
        sponsored: sponsor.deployed && sponsor.sponsored && enough,
        zeroGas: fees.maxFeePerGas === 0n,
        paymaster: sponsor.deployed ? getAddress(paymaster) : null,
        paymasterDeposit: sponsor.deployed ? sponsor.deposit.toString() : null,
      }),
      200,
    );
  });
}
