// PUT /api/v2/smart-wallets/{address}/threshold: the owner changes a weighted multisig's threshold through the
// wallet's own user operation (setThreshold on itself). A value the weights cannot reach passes here and fails when
// the operation executes (ThresholdUnreachable), visible in the transaction status.
import { createRoute } from "@hono/zod-openapi";
import { type Address, encodeFunctionData } from "viem";
import { WeightedMultisigAccountAbi } from "../../abis/WeightedMultisigAccount.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { jsonBody, mutationResponses } from "../../host/http/schemas.ts";
import { submitChainWrite } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { isUint64FromOne, ThresholdBodySchema, WalletParams } from "./schemas.ts";
import { walletOfRequest } from "./wallet-query.ts";

export const THRESHOLD_KIND = "smart-wallet.threshold";

const setThreshold = createRoute({
  method: "put",
  path: "/api/v2/smart-wallets/{address}/threshold",
  tags: ["smart wallets"],
  summary: "Change a weighted multisig wallet's threshold (owner only)",
  description:
    "threshold is a weight sum (decimal 1 to 18446744073709551615), not a count. The change is the wallet's own " +
    "user operation: it needs the current threshold's signatures (PENDING_APPROVAL until co-signers sign).",
  middleware: [requirePermission("smartWallet:operate")],
  request: { params: WalletParams, body: jsonBody(ThresholdBodySchema) },
  responses: mutationResponses,
});

export function thresholdRoute(app: App, ctx: PluginContext) {
  app.openapi(setThreshold, async (c) => {
    const body = c.req.valid("json");
    const { chain, wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    if (wallet.participantId !== c.get("requestContext").participantId)
      throw new ApiError("SMART_WALLET_OWNER_REQUIRED", { details: { address: wallet.address } });
    if (wallet.validatorType !== "weighted-multisig")
      throw new ApiError("SMART_WALLET_MULTISIG_VALIDATOR_REQUIRED", {
        details: { validatorType: wallet.validatorType },
      });
    if (!isUint64FromOne(body.threshold))
      throw new ApiError("SMART_WALLET_THRESHOLD_INVALID", { details: { threshold: body.threshold } });
    await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
    return submitChainWrite(c, ctx, {
      chainId: chain.chainId,
      kind: THRESHOLD_KIND,
      to: wallet.address as Address,
      data: encodeFunctionData({
        abi: WeightedMultisigAccountAbi,
        functionName: "setThreshold",
        args: [BigInt(body.threshold)],
      }),
      walletSelection: { smartWalletAddress: wallet.address },
    });
  });
}
