// The deployment's `account` step: the account created by the factory at the predicted address.
import { type Address, encodeFunctionData } from "viem";
import { WeightedMultisigAccountFactoryAbi } from "../../abis/WeightedMultisigAccountFactory.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { type DeployContext, recordWallet, type StepWrite } from "./deploy-step-write.ts";
import type { SmartWalletRow } from "./tables.ts";
import { factoryArgs, smartWalletDeployment } from "./wallet-chain.ts";

export async function accountStep(
  ctx: DeployContext,
  write: StepWrite,
  on: ServedChain,
  wallet: SmartWalletRow,
  owner: Address,
): Promise<void> {
  const code = await on.client.getCode({ address: wallet.address as Address });
  if (!code || code === "0x")
    await write(wallet, "account", {
      from: owner,
      to: smartWalletDeployment(on).accountFactory,
      data: encodeFunctionData({
        abi: WeightedMultisigAccountFactoryAbi,
        functionName: "createAccount",
        args: factoryArgs(wallet.signers, wallet.threshold, wallet.salt),
      }),
    });
  await recordWallet(ctx, {
    address: wallet.address,
    organizationId: wallet.organizationId,
    userId: wallet.participantId,
    kind: "smart-wallet",
  });
}
