// What a completed add-on creation answers: the new instance's address, read from the root's AddonInstanceCreated
// in the receipt (every addon factory announces its instances there), under the name the route documents.
import { parseEventLogs } from "viem";
import { SystemFactoryAbi } from "../../abis/SystemFactory.ts";
import type { MutationKind } from "../mutations/service.ts";

export function addonCreationKind(field: string): MutationKind {
  return {
    result(receipt) {
      const [created] = parseEventLogs({
        abi: SystemFactoryAbi,
        logs: receipt.logs,
        eventName: "AddonInstanceCreated",
      });
      if (!created) throw new Error("AddonInstanceCreated missing from the receipt");
      return { [field]: created.args.instance };
    },
  };
}
