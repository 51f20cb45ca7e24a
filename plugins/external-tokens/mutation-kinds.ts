// The registration's chain write and what its receipt yields (the spec's completed `data.tokenAddress`).
import { parseEventLogs } from "viem";
import { ExternalTokenRegistryAbi } from "../../abis/ExternalTokenRegistry.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const externalTokenMutationKinds: Record<string, MutationKind> = {
  "externalToken.register": {
    result(receipt) {
      const [registered] = parseEventLogs({
        abi: ExternalTokenRegistryAbi,
        logs: receipt.logs,
        eventName: "ExternalTokenRegistered",
      });
      if (!registered) throw new Error("ExternalTokenRegistered missing from the receipt");
      return { tokenAddress: registered.args.token };
    },
  },
  "externalToken.approve": {},
};
