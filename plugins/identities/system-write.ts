// The common path of this plugin's chain writes: the request chain, the session caller's PIN, the signing wallet,
// then the write the route builds from them (which may read the chain or sign with the wallet first).
import type { Context } from "hono";
import type { Address, Hex } from "viem";
import { verifyWalletForWrite, type WalletVerification } from "../../host/auth/wallet-verification.ts";
import { type RequestChain, requestChain } from "../../host/chain/request-chain.ts";
import type { WalletSelection } from "../../host/db/platform-types.ts";
import type { AppEnv } from "../../host/http/env.ts";
import { requestSigner, submitChainWrite, walletSelectionOf } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";

export interface SignerInput extends WalletSelection {
  walletVerification?: WalletVerification;
}

export interface SystemWrite {
  kind: string;
  to: Address;
  data: Hex;
}

export async function submitSystemWrite(
  c: Context<AppEnv>,
  ctx: PluginContext,
  body: SignerInput,
  build: (chain: RequestChain, signer: Address) => SystemWrite | Promise<SystemWrite>,
) {
  const chain = await requestChain(c, ctx.db.platform, [ctx.chain.chainId]);
  await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
  const walletSelection = walletSelectionOf(body);
  const signer = await requestSigner(c, ctx, walletSelection);
  const write = await build(chain, signer);
  return submitChainWrite(c, ctx, { chainId: chain.chainId, ...write, walletSelection, from: signer });
}
