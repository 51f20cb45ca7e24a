// The deployment's identity steps, when the participant has an identity in the system's registry:
//   identity-key      the wallet as a management key on the participant's identity
//   identity-registry the wallet registered in the system's identity registry with that identity and country
import { type Address, encodeFunctionData, getAddress, type Hex, zeroAddress } from "viem";
import { IdentityAbi } from "../../abis/Identity.ts";
import { IdentityRegistryAbi } from "../../abis/IdentityRegistry.ts";
import { addressKey } from "../../domain/evm/identity-key.ts";
import { fundSigner } from "../../host/chain/fund-signer.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { DeployContext, StepRun } from "./deploy-step-write.ts";
import type { SmartWalletRow } from "./tables.ts";

const MANAGEMENT = 1n;
const ECDSA_KEY = 1n;

/** The system's identity registry on the wallet's chain, if the organisation has a system there. */
async function identityRegistry(ctx: DeployContext, wallet: SmartWalletRow): Promise<Address | undefined> {
  const system = await ctx.db.platform
    .selectFrom("organizationChains")
    .select("contracts")
    .where("organizationId", "=", wallet.organizationId)
    .where("chainId", "=", wallet.chainId)
    .executeTakeFirst();
  return system?.contracts?.identityRegistry as Address | undefined;
}

/** The participant's custody wallet with an identity in the system's registry, and that identity. */
async function participantIdentity(ctx: DeployContext, on: ServedChain, wallet: SmartWalletRow, registry: Address) {
  const eoas = await ctx.db.platform
    .selectFrom("wallets")
    .select("address")
    .where("organizationId", "=", wallet.organizationId)
    .where("userId", "=", wallet.participantId)
    .where("kind", "=", "eoa")
    .execute();
  for (const { address } of eoas) {
    const identity = await on.client.readContract({
      address: registry,
      abi: IdentityRegistryAbi,
      functionName: "identity",
      args: [getAddress(address)],
    });
    if (identity !== zeroAddress) return { eoa: getAddress(address), identity };
  }
  return undefined;
}

export async function identityStep(
  { ctx, write, on, wallet, owner }: StepRun,
  step: "identity-key" | "identity-registry",
): Promise<void> {
  const registry = await identityRegistry(ctx, wallet);
  if (!registry) return; // no system on this chain: nothing to register with
  const found = await participantIdentity(ctx, on, wallet, registry);
  if (!found) return; // the participant has no identity: nothing to attach the wallet to
  const walletAddress = getAddress(wallet.address);
  if (step === "identity-key") {
    const has = (key: Hex) =>
      on.client.readContract({
        address: found.identity,
        abi: IdentityAbi,
        functionName: "keyHasPurpose",
        args: [key, MANAGEMENT],
      });
    if (await has(addressKey(walletAddress))) return;
    // A management key of the identity adds it: the organisation's wallet when it onboarded the participant.
    const from = (await has(addressKey(owner))) ? owner : found.eoa;
    if (from === found.eoa) await fundSigner(ctx, on, from);
    await write(wallet, "identity-key", {
      from,
      to: found.identity,
      data: encodeFunctionData({
        abi: IdentityAbi,
        functionName: "addKey",
        args: [addressKey(walletAddress), MANAGEMENT, ECDSA_KEY],
      }),
    });
    return;
  }
  const read = (functionName: "contains" | "investorCountry", account: Address) =>
    on.client.readContract({ address: registry, abi: IdentityRegistryAbi, functionName, args: [account] });
  if (await read("contains", walletAddress)) return;
  const country = (await read("investorCountry", found.eoa)) as number;
  await write(wallet, "identity-registry", {
    from: owner,
    to: registry,
    data: encodeFunctionData({
      abi: IdentityRegistryAbi,
      functionName: "registerIdentity",
      args: [walletAddress, found.identity, country],
    }),
  });
}
