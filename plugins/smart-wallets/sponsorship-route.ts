// PUT /api/v2/smart-wallets/{address}/sponsorship: a gas spender's explicit decision that the organisation's
// paymaster pays (or stops paying) a wallet's gas: setSponsored on the paymaster, sent by the organisation's primary
// wallet (its owner). The way to sponsor a wallet with outside signers after creation, or to revoke one.
import { createRoute, z } from "@hono/zod-openapi";
import { type Address, encodeFunctionData } from "viem";
import { SponsoringPaymasterAbi } from "../../abis/SponsoringPaymaster.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { jsonBody, mutationResponses, WalletVerificationSchema } from "../../host/http/schemas.ts";
import { requestExecutor, submitChainWrite } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { WalletParams } from "./schemas.ts";
import { walletsDb } from "./tables.ts";
import { organisationPaymaster, sponsorship } from "./wallet-chain.ts";
import { walletOfRequest } from "./wallet-query.ts";

export const SPONSORSHIP_KIND = "smart-wallet.sponsorship";
const EOA = { forceEoa: true };

const SponsorshipBodySchema = z
  .object({
    sponsored: z.boolean().openapi({ description: "true: the organisation's paymaster pays the wallet's gas" }),
    walletVerification: WalletVerificationSchema.optional(),
  })
  .openapi("SmartWalletSponsorship");

const setSponsorship = createRoute({
  method: "put",
  path: "/api/v2/smart-wallets/{address}/sponsorship",
  tags: ["smart wallets"],
  summary: "Decide whether the organisation's paymaster pays a wallet's gas",
  description:
    "Needs smartWallet:sponsor (owner, admin, gasManager): sponsoring a wallet whose signers are not all the " +
    "organisation's custody wallets puts the organisation's gas in outside hands, and revoking stops a wallet's " +
    "sponsored operations. A chain write of the organisation's primary wallet (setSponsored on its paymaster); 409 " +
    "SMART_WALLET_NOT_DEPLOYED before the wallet or the paymaster exists.",
  middleware: [requirePermission("smartWallet:sponsor")],
  request: { params: WalletParams, body: jsonBody(SponsorshipBodySchema) },
  responses: mutationResponses,
});

export function sponsorshipRoute(app: App, ctx: PluginContext<"custody">) {
  app.openapi(setSponsorship, async (c) => {
    const body = c.req.valid("json");
    const { organizationId } = c.get("principal");
    // The paymaster's owner sends it: the organisation's primary EOA, never a smart wallet.
    if (requestExecutor(c, EOA) === "smart-wallet")
      throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", {
        message: "Sponsorship is set by the paymaster's owner, the organisation's primary wallet: use X-Executor: eoa",
        details: { executor: "smart-wallet" },
      });
    const { chain, wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    const owners = await ctx.custody.primaryAddresses(organizationId);
    const paymaster = await organisationPaymaster(chain, owners);
    if (wallet.step !== "deployed" || !(await sponsorship(chain, paymaster, wallet.address as Address)).deployed)
      throw new ApiError("SMART_WALLET_NOT_DEPLOYED", { details: { address: wallet.address, step: wallet.step } });
    await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
    await walletsDb(ctx.db.platform)
      .updateTable("smartWallets")
      .set({ sponsored: body.sponsored, updatedAt: new Date() })
      .where("chainId", "=", chain.chainId)
      .where("address", "=", wallet.address)
      .execute();
    return submitChainWrite(c, ctx, {
      chainId: chain.chainId,
      kind: SPONSORSHIP_KIND,
      to: paymaster,
      data: encodeFunctionData({
        abi: SponsoringPaymasterAbi,
        functionName: "setSponsored",
        args: [wallet.address as Address, body.sponsored],
      }),
      from: owners[0],
      walletSelection: EOA,
      description: `${body.sponsored ? "Sponsor" : "Stop sponsoring"} smart wallet ${wallet.address}`,
    });
  });
}
