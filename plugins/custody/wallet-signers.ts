// The move's `signers` step: an old key that signs a participant's smart wallet (WeightedMultisigAccount) is replaced
// there by its successor with the same weight. addSigner/removeSigner are callable only by the account itself, so the
// change is one user operation of the wallet (executeBatch on itself: add the successor, then remove the old key),
// queued as X-Executor: smart-wallet writes are (the smart-wallets plugin signs it with the owner's custody keys and
// sends it through the bundler's pool). Only where the old key's weight alone reaches the threshold and the wallet
// is its holder's does that complete on its own; every other wallet is listed in the move's record, left for its
// signers.
import { type Address, encodeFunctionData, getAddress, type Hex, isAddressEqual } from "viem";
import { WeightedMultisigAccountAbi } from "../../abis/WeightedMultisigAccount.ts";
import type { KeyPair } from "../../host/custody/custody.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { MoveTools } from "./key-move-tools.ts";
import type { LeftWallet } from "./tables.ts";

export interface WalletSigners {
  signers: { address: string; weight: bigint }[];
  threshold: bigint;
}

/**
 * The wallet's own call replacing `old` by `successor` (same weight), or why the old key cannot make it alone;
 * undefined once `old` is no signer (replaced by an earlier run, or by the wallet's signers).
 */
export function signerReplacement(
  wallet: Address,
  live: WalletSigners,
  old: Address,
  successor: Address,
): { data: Hex; weight: bigint } | { left: "below-threshold"; weight: bigint } | undefined {
  const signer = live.signers.find((s) => isAddressEqual(s.address as Address, old));
  if (!signer) return undefined;
  if (signer.weight < live.threshold) return { left: "below-threshold", weight: signer.weight };
  const self = (data: Hex) => ({ target: wallet, value: 0n, data });
  const added = live.signers.some((s) => isAddressEqual(s.address as Address, successor));
  const calls = [
    ...(added
      ? []
      : [
          self(
            encodeFunctionData({
              abi: WeightedMultisigAccountAbi,
              functionName: "addSigner",
              args: [successor, signer.weight],
            }),
          ),
        ]),
    self(encodeFunctionData({ abi: WeightedMultisigAccountAbi, functionName: "removeSigner", args: [old] })),
  ];
  return {
    data: encodeFunctionData({ abi: WeightedMultisigAccountAbi, functionName: "executeBatch", args: [calls] }),
    weight: signer.weight,
  };
}

export async function replaceWalletSigners(tools: MoveTools): Promise<void> {
  const { ctx } = tools;
  const writes: string[] = [];
  const left: LeftWallet[] = [];
  for (const chainId of await tools.indexedChains()) {
    for (const pair of tools.keys) {
      const rows = await ctx.db
        .ledgerOn(chainId)
        .selectFrom("smartWalletSigner")
        .select("wallet")
        .where("signer", "=", indexedHex(pair.oldAddress))
        .orderBy("wallet")
        .execute();
      for (const { wallet: indexed } of rows) {
        const wallet = getAddress(indexed);
        const live = await walletSigners(tools, chainId, wallet);
        const replacement = signerReplacement(wallet, live, pair.oldAddress, pair.newAddress);
        if (!replacement) continue;
        const entry = {
          chainId,
          address: wallet,
          signer: pair.oldAddress,
          successor: pair.newAddress,
          weight: replacement.weight.toString(),
          threshold: live.threshold.toString(),
        };
        if ("left" in replacement) left.push({ ...entry, reason: replacement.left });
        else if (!(await operatedFor(tools, chainId, wallet, pair))) left.push({ ...entry, reason: "not-operated" });
        else
          writes.push(
            await tools.submit({
              chainId,
              kind: "custody.replaceSigner",
              from: wallet,
              to: wallet,
              data: replacement.data,
              executor: "smart-wallet",
              walletSelection: { smartWalletAddress: wallet },
              key: `signer:${chainId}:${wallet.toLowerCase()}:${pair.oldAddress}`,
              description: `Replace signer ${pair.oldAddress} of smart wallet ${wallet} by its HSM successor ${pair.newAddress}`,
            }),
          );
      }
    }
  }
  tools.detail.walletsLeft = left;
  await tools.completeAll(writes);
}

async function walletSigners(tools: MoveTools, chainId: number, wallet: Address): Promise<WalletSigners> {
  const { client } = tools.ctx.chains.get(chainId);
  const [[accounts, weights], threshold] = await Promise.all([
    client.readContract({ address: wallet, abi: WeightedMultisigAccountAbi, functionName: "signers" }),
    client.readContract({ address: wallet, abi: WeightedMultisigAccountAbi, functionName: "threshold" }),
  ]);
  return { signers: accounts.map((address, i) => ({ address, weight: weights[i] ?? 0n })), threshold };
}

/**
 * Whether the platform sends the wallet's operations for the key's holder, signing them with the holder's custody
 * keys: the wallet is that participant's (the smart-wallet executor resolves it as a route would).
 */
async function operatedFor(tools: MoveTools, chainId: number, wallet: Address, pair: KeyPair): Promise<boolean> {
  if (!pair.userId) return false;
  try {
    await tools.ctx.mutations.signerFor({
      organizationId: tools.organizationId,
      executor: "smart-wallet",
      selection: { smartWalletAddress: wallet },
      participantId: pair.userId,
      chainId,
    });
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}
