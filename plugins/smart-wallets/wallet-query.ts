// A smart wallet as the routes find and show it: the organisation's, on the request's chain.
import type { Context } from "hono";
import { requestChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { AppEnv } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { type SmartWalletRow, walletsDb } from "./tables.ts";

export async function findWallet(ctx: PluginContext, organizationId: string, chainId: number, address: string) {
  const wallet = await walletsDb(ctx.db.platform)
    .selectFrom("smartWallets")
    .selectAll()
    .where("address", "=", address.toLowerCase())
    .where("organizationId", "=", organizationId)
    .where("chainId", "=", chainId)
    .executeTakeFirst();
  if (!wallet) throw new ApiError("SMART_WALLET_NOT_FOUND", { details: { address } });
  return wallet;
}

/** The request's chain (X-Chain-Id or the organisation's default) and the organisation's wallet at `address` there. */
export async function walletOfRequest(c: Context<AppEnv>, ctx: PluginContext, address: string) {
  const chain = await requestChain(c, ctx);
  return { chain, wallet: await findWallet(ctx, c.get("principal").organizationId, chain.chainId, address) };
}

export function walletRecord(wallet: SmartWalletRow) {
  return {
    address: wallet.address,
    chainId: wallet.chainId,
    participantId: wallet.participantId,
    validatorType: wallet.validatorType,
    description: wallet.description,
    signers: wallet.signers,
    threshold: String(wallet.threshold), // numeric columns may come back as bigint
    sponsored: wallet.sponsored,
    deployment: {
      status:
        wallet.step === "deployed"
          ? ("deployed" as const)
          : wallet.step === "failed"
            ? ("failed" as const)
            : ("deploying" as const),
      step: wallet.step,
      failure: wallet.failure,
    },
    createdAt: wallet.createdAt.toISOString(),
  };
}
