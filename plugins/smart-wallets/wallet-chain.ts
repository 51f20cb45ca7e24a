// What a chain says about a smart wallet and the organisation's paymaster there (live reads: the deployment and the
// approvals must act on the signer set as it is now, not as indexed a block ago).
import { type Address, getAddress, keccak256, toHex } from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { SponsoringPaymasterAbi } from "../../abis/SponsoringPaymaster.ts";
import { SponsoringPaymasterFactoryAbi } from "../../abis/SponsoringPaymasterFactory.ts";
import { WeightedMultisigAccountAbi } from "../../abis/WeightedMultisigAccount.ts";
import { WeightedMultisigAccountFactoryAbi } from "../../abis/WeightedMultisigAccountFactory.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { WalletSigner } from "./tables.ts";

export interface SmartWalletDeployment {
  entryPoint: Address;
  accountFactory: Address;
  paymasterFactory: Address;
}

/** The chain's EntryPoint and factories, or REQUEST_EXECUTOR_UNAVAILABLE on a chain without them. */
export function smartWalletDeployment(on: ServedChain): SmartWalletDeployment {
  const { entryPoint, smartAccountFactory, paymasterFactory } = on.deployment;
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
  on: ServedChain,
  signers: WalletSigner[],
  threshold: string,
  salt: bigint,
): Promise<Address> {
  return on.client.readContract({
    address: smartWalletDeployment(on).accountFactory,
    abi: WeightedMultisigAccountFactoryAbi,
    functionName: "getAddress",
    args: factoryArgs(signers, threshold, salt),
  });
}

/** The signer set and threshold on the chain now. */
export async function liveSigners(on: ServedChain, wallet: Address) {
  const [[accounts, weights], threshold] = await Promise.all([
    on.client.readContract({ address: wallet, abi: WeightedMultisigAccountAbi, functionName: "signers" }),
    on.client.readContract({ address: wallet, abi: WeightedMultisigAccountAbi, functionName: "threshold" }),
  ]);
  return {
    signers: accounts.map((address, i) => ({ address: address.toLowerCase(), weight: weights[i]! })),
    threshold,
  };
}

/**
 * The organisation's paymaster (owned by its primary wallet), deployed or not. `owners`: the primary key now, then
 * the keys it replaced (custody.primaryAddresses): the factory derives the address from its creator, so a paymaster
 * created before a move to the HSM (and handed to the new key by it) is found through the old key's address.
 */
export async function organisationPaymaster(on: ServedChain, owners: readonly Address[]): Promise<Address> {
  const addresses = await Promise.all(
    owners.map((owner) =>
      on.client.readContract({
        address: smartWalletDeployment(on).paymasterFactory,
        abi: SponsoringPaymasterFactoryAbi,
        functionName: "getAddress",
        args: [owner],
      }),
    ),
  );
  for (const address of addresses.slice(1)) {
    const code = await on.client.getCode({ address });
    if (code && code !== "0x") return address;
  }
  const current = addresses[0];
  if (!current) throw new Error("The organisation has no primary key");
  return current;
}

/** Whether the paymaster exists, sponsors `wallet`, and its deposit at the EntryPoint. */
export async function sponsorship(on: ServedChain, paymaster: Address, wallet: Address) {
  const code = await on.client.getCode({ address: paymaster });
  if (!code || code === "0x") return { deployed: false, sponsored: false, deposit: 0n };
  const [sponsored, deposit] = await Promise.all([
    on.client.readContract({
      address: paymaster,
      abi: SponsoringPaymasterAbi,
      functionName: "isSponsored",
      args: [wallet],
    }),
    on.client.readContract({
      address: smartWalletDeployment(on).entryPoint,
      abi: entryPoint08Abi,
      functionName: "balanceOf",
      args: [paymaster],
    }),
  ]);
  return { deployed: true, sponsored, deposit };
}
