// What the chain says about a smart wallet and the organisation's paymaster (live reads: the deployment and the
// approvals must act on the signer set as it is now, not as indexed a block ago).
import { type Address, getAddress, keccak256, toHex } from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { SponsoringPaymasterAbi } from "../../abis/SponsoringPaymaster.ts";
import { SponsoringPaymasterFactoryAbi } from "../../abis/SponsoringPaymasterFactory.ts";
import { WeightedMultisigAccountAbi } from "../../abis/WeightedMultisigAccount.ts";
import { WeightedMultisigAccountFactoryAbi } from "../../abis/WeightedMultisigAccountFactory.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { WalletSigner } from "./tables.ts";

export interface SmartWalletDeployment {
  entryPoint: Address;
  accountFactory: Address;
  paymasterFactory: Address;
}

/** The EntryPoint and the factories, or REQUEST_EXECUTOR_UNAVAILABLE on a deployment without them. */
export function smartWalletDeployment(ctx: PluginContext): SmartWalletDeployment {
  const { entryPoint, smartAccountFactory, paymasterFactory } = ctx.deployment;
  if (!entryPoint || !smartAccountFactory || !paymasterFactory)
    throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", {
      message: "This deployment has no smart-wallet factories on its chain",
      details: { executor: "smart-wallet" },
    });
  return { entryPoint, accountFactory: smartAccountFactory, paymasterFactory };
}

/** The salt of a participant's wallet: one wallet per participant and organisation. */
export function walletSalt(organizationId: string, participantId: string): bigint {
  return BigInt(keccak256(toHex(`smart-wallet:${organizationId}:${participantId}`)));
}

export function factoryArgs(signers: WalletSigner[], threshold: string, salt: string | bigint) {
  return [
    signers.map((s) => getAddress(s.address)),
    signers.map((s) => BigInt(s.weight)),
    BigInt(threshold),
    BigInt(salt),
  ] as const;
}

/** The counterfactual address the factory gives this configuration. */
export async function predictWalletAddress(
  ctx: PluginContext,
  signers: WalletSigner[],
  threshold: string,
  salt: bigint,
): Promise<Address> {
  return ctx.chain.client.readContract({
    address: smartWalletDeployment(ctx).accountFactory,
    abi: WeightedMultisigAccountFactoryAbi,
    functionName: "getAddress",
    args: factoryArgs(signers, threshold, salt),
  });
}

/** The signer set and threshold on chain now. */
export async function liveSigners(ctx: PluginContext, wallet: Address) {
  const [[accounts, weights], threshold] = await Promise.all([
    ctx.chain.client.readContract({ address: wallet, abi: WeightedMultisigAccountAbi, functionName: "signers" }),
    ctx.chain.client.readContract({ address: wallet, abi: WeightedMultisigAccountAbi, functionName: "threshold" }),
  ]);
  return {
    signers: accounts.map((address, i) => ({ address: address.toLowerCase(), weight: weights[i]! })),
    threshold,
  };
}

/** The organisation's paymaster (owned by its primary wallet), deployed or not. */
export async function organisationPaymaster(ctx: PluginContext, owner: Address): Promise<Address> {
  return ctx.chain.client.readContract({
    address: smartWalletDeployment(ctx).paymasterFactory,
    abi: SponsoringPaymasterFactoryAbi,
    functionName: "getAddress",
    args: [owner],
  });
}

/** Whether the paymaster exists, sponsors `wallet`, and its deposit at the EntryPoint. */
export async function sponsorship(ctx: PluginContext, paymaster: Address, wallet: Address) {
  const code = await ctx.chain.client.getCode({ address: paymaster });
  if (!code || code === "0x") return { deployed: false, sponsored: false, deposit: 0n };
  const [sponsored, deposit] = await Promise.all([
    ctx.chain.client.readContract({
      address: paymaster,
      abi: SponsoringPaymasterAbi,
      functionName: "isSponsored",
      args: [wallet],
    }),
    ctx.chain.client.readContract({
      address: smartWalletDeployment(ctx).entryPoint,
      abi: entryPoint08Abi,
      functionName: "balanceOf",
      args: [paymaster],
    }),
  ]);
  return { deployed: true, sponsored, deposit };
}
