// The deployment's `account` step: the account created by the factory at the predicted address.
import { type Address, encodeFunctionData } from "viem";
import { WeightedMultisigAccountFactoryAbi } from "../../abis/WeightedMultisigAccountFactory.ts";
import { recordWallet, type StepRun } from "./deploy-step-write.ts";
import { factoryArgs, smartWalletDeployment } from "./wallet-chain.ts";

export async function accountStep({ ctx, write, on, wallet, owner }: StepRun): Promise<void> {
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
