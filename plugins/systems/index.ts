// An organisation's system on a chain: deployed through the transaction pipeline, recorded once mined.
import { type Address, parseEventLogs } from "viem";
import { SystemFactoryAbi } from "../../abis/SystemFactory.ts";
import { definePlugin } from "../../host/plugin.ts";
import { provisionTask } from "./provision.ts";

export default definePlugin({
  id: "systems",
  tasks: (ctx) => ({ provision: provisionTask(ctx) }),
  mutationKinds: {
    "system.create": {
      result(receipt) {
        const [created] = parseEventLogs({ abi: SystemFactoryAbi, logs: receipt.logs, eventName: "SystemCreated" });
        if (!created) throw new Error("SystemCreated missing from the receipt");
        return { systemAddress: created.args.system, tokenFactoryAddress: created.args.tokenFactory };
      },
      async onCompleted(trx, request, result) {
        await trx
          .updateTable("organizationChains")
          .set({
            status: "ready",
            systemAddress: (result.systemAddress as Address).toLowerCase(),
            tokenFactoryAddress: (result.tokenFactoryAddress as Address).toLowerCase(),
            updatedAt: new Date(),
          })
          .where("organizationId", "=", request.organizationId)
          .where("chainId", "=", request.chainId)
          .execute();
      },
    },
  },
});
