// Gas money for a platform signer on embedded and test chains (the deployment's funder key): topped up to
// ORG_FUNDING_WEI when below half of it. Signed once, so a retried broadcast is the same transaction. A chain's
// top-ups go out one at a time in the process (the funder's nonce: two signed at once would take the same one), each
// checking the balance again in its turn (a signer topped up meanwhile is not funded twice).
import { type Address, createWalletClient, type Hex, http, keccak256 } from "viem";
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
  const funded = async () => (await on.client.getBalance({ address: signer })) >= wanted / 2n;
  if (!funderKey || (await funded())) return;
  await inTurn(on, async () => {
    if (!(await funded())) await topUp(on, funderKey, signer, wanted);
  });
}

/** The chain's funding turn in this process: the last top-up queued. */
const turns = new WeakMap<ServedChain, Promise<unknown>>();

function inTurn(on: ServedChain, run: () => Promise<void>): Promise<void> {
  const next = (turns.get(on) ?? Promise.resolve()).then(run);
  turns.set(
    on,
    next.catch(() => undefined),
  );
  return next;
}

async function topUp(on: ServedChain, funderKey: Hex, signer: Address, wanted: bigint) {
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
