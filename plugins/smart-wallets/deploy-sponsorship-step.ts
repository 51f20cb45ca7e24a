// The deployment's `sponsorship` step (sponsored wallets only): the organisation's paymaster (created once by the
// paymaster factory), its deposit at the EntryPoint topped up to PAYMASTER_DEPOSIT_WEI, and the wallet sponsored
// (counterfactually, before the account exists).
import { type Address, encodeFunctionData } from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { SponsoringPaymasterAbi } from "../../abis/SponsoringPaymaster.ts";
import { SponsoringPaymasterFactoryAbi } from "../../abis/SponsoringPaymasterFactory.ts";
import { fundSigner } from "../../host/chain/fund-signer.ts";
import { recordWallet, type StepRun } from "./deploy-step-write.ts";
import { organisationPaymaster, smartWalletDeployment, sponsorship } from "./wallet-chain.ts";

export async function sponsorshipStep({ ctx, write, on, wallet, owner }: StepRun): Promise<void> {
  const { paymasterFactory, entryPoint } = smartWalletDeployment(on);
  const paymaster = await organisationPaymaster(on, await ctx.custody.primaryAddresses(wallet.organizationId));
  let state = await sponsorship(on, paymaster, wallet.address as Address);
  if (!state.deployed)
    await write(wallet, "paymaster", {
      from: owner,
      to: paymasterFactory,
      data: encodeFunctionData({ abi: SponsoringPaymasterFactoryAbi, functionName: "createPaymaster", args: [owner] }),
    });
  await recordWallet(ctx, {
    address: paymaster.toLowerCase(),
    organizationId: wallet.organizationId,
    userId: null,
    kind: "paymaster",
  });
  state = await sponsorship(on, paymaster, wallet.address as Address);
  const wanted = ctx.settings.PAYMASTER_DEPOSIT_WEI;
  if (state.deposit < wanted / 2n) {
    await fundSigner(ctx, on, owner);
    await write(wallet, "deposit", {
      from: owner,
      to: entryPoint,
      data: encodeFunctionData({ abi: entryPoint08Abi, functionName: "depositTo", args: [paymaster] }),
      value: wanted - state.deposit,
    });
  }
  if (!state.sponsored)
    await write(wallet, "sponsor", {
      from: owner,
      to: paymaster,
      data: encodeFunctionData({
        abi: SponsoringPaymasterAbi,
        functionName: "setSponsored",
        args: [wallet.address as Address, true],
      }),
    });
}
