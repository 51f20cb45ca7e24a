// The common path of a chain write on a system contract: the request chain, the session caller's PIN, the signing wallet,
// then the write the route builds from them (which may read the chain or sign with the wallet first).
import type { Context } from "hono";
import type { Address, Hex } from "viem";
import { verifyWalletForWrite, type WalletVerification } from "../auth/wallet-verification.ts";
import { type RequestChain, requestChain } from "../chain/request-chain.ts";
import type { WalletSelection } from "../db/platform-types.ts";
import type { AppEnv } from "../http/env.ts";
import type { PluginContext } from "../plugin.ts";
import { requestSigner, submitChainWrite, walletSelectionOf } from "./submit-mutation.ts";

export interface SignerInput extends WalletSelection {
  walletVerification?: WalletVerification;
}

export interface SystemWrite {
  kind: string;
  to: Address;
  data: Hex;
  /** The request's human summary (see SubmitInput.description). */
  description?: string;
  /** Merged into the result once mined (see SubmitInput.resultContext). */
  resultContext?: Record<string, unknown>;
  /**
   * Refuses the write before it is queued, from the state it changes (e.g. already registered). Skipped for a retry
   * of an earlier request (same signer, chain and Idempotency-Key): that one answers as the earlier request does,
   * though its own effect would now fail the check.
   */
  precheck?: () => Promise<void>;
}

/** Whether `key` names an earlier request of `signer` on `chainId` (a retry the pipeline attaches or refuses). */
async function isRetry(ctx: PluginContext, signer: Address, chainId: number, key: string | undefined) {
  if (key === undefined) return false;
  const row = await ctx.db.platform
    .selectFrom("transactionRequests")
    .select("id")
    .where("fromAddress", "=", signer.toLowerCase())
    .where("chainId", "=", chainId)
    .where("idempotencyKey", "=", key)
    .executeTakeFirst();
  return row !== undefined;
}

export async function submitSystemWrite(
  c: Context<AppEnv>,
  ctx: PluginContext,
  body: SignerInput,
  build: (chain: RequestChain, signer: Address) => SystemWrite | Promise<SystemWrite>,
) {
  const chain = await requestChain(c, ctx);
  await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
  const walletSelection = walletSelectionOf(body);
  const signer = await requestSigner(c, ctx, walletSelection);
  const { precheck, ...write } = await build(chain, signer);
  if (precheck && !(await isRetry(ctx, signer, chain.chainId, c.req.header("idempotency-key")))) await precheck();
  return submitChainWrite(c, ctx, { chainId: chain.chainId, ...write, walletSelection, from: signer });
}
