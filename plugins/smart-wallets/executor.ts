// X-Executor: smart-wallet (or a body's smartWalletAddress): the acting participant's deployed smart wallet sends
// the write, as a user operation run by smart-wallets:execute.
import type { Address } from "viem";
import { ApiError } from "../../host/errors/api-error.ts";
import type { RequestExecutor } from "../../host/mutations/executors.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { assertAccountAbstractionAllowed } from "./account-abstraction.ts";
import { executeJob } from "./jobs.ts";
import { walletsDb } from "./tables.ts";

export function smartWalletExecutor(ctx: PluginContext): RequestExecutor {
  return {
    async resolveSender({ organizationId, participantId, chainId, address }) {
      const wallet = await walletsDb(ctx.db.platform)
        .selectFrom("smartWallets")
        .select(["address", "step"])
        .where("organizationId", "=", organizationId)
        .where("chainId", "=", chainId)
        .where("participantId", "=", participantId)
        .$if(address !== undefined, (q) => q.where("address", "=", address!.toLowerCase()))
        .executeTakeFirst();
      // A named address that is not the participant's wallet is refused as such; otherwise the policies come first.
      if (!wallet && address)
        throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", {
          message: "The acting participant has no smart wallet at this address on this chain",
          details: { executor: "smart-wallet", smartWalletAddress: address },
        });
      await assertAccountAbstractionAllowed(ctx, organizationId);
      if (!wallet)
        throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", {
          message:
            "The acting participant has no smart wallet on this chain: provision one with POST /api/v2/smart-wallets",
          details: { executor: "smart-wallet" },
        });
      if (wallet.step !== "deployed")
        throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", {
          message: "The participant's smart wallet is not deployed yet",
          details: { executor: "smart-wallet", smartWalletAddress: wallet.address, deployment: wallet.step },
        });
      return wallet.address as Address;
    },
    sendJob: executeJob,
  };
}
