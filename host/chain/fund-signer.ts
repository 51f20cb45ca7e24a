// Gas money for a platform signer on embedded and test chains (the deployment's funder key): topped up to
// ORG_FUNDING_WEI when below half of it. Signed once, so a retried broadcast is the same transaction.
import { type Address, createWalletClient, http, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { PluginContext } from "../plugin.ts";
import { isAlreadyKnown } from "../worker/deps.ts";
import type { ServedChain } from "./served-chains.ts";

export async function fundSigner(
  ctx: Pick<PluginContext<"deployment">, "deployment" | "config">,
  on: ServedChain,
  signer: Address,
) {
  const { funderKey } = ctx.deployment;
  const wanted = ctx.config.ORG_FUNDING_WEI;
  if (!funderKey || (await on.client.getBalance({ address: signer })) >= wanted / 2n) return;
  const wallet = createWalletClient({
    account: privateKeyToAccount(funderKey),
    chain: on.chain,
    transport: http(on.chain.rpcUrls.default.http[0]),
  });
  const request = await wallet.prepareTransactionRequest({ to: signer, value: wanted });
  const raw = await wallet.signTransaction(request);
  await on.client.sendRawTransaction({ serializedTransaction: raw }).catch((error) => {
    if (!isAlreadyKnown(error)) throw error;
  });
  await on.client.waitForTransactionReceipt({ hash: keccak256(raw) });
}
