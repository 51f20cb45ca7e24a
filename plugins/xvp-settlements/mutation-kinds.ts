// The settlement writes and what a completed one answers: the creation's data.settlementAddress from the
// factory's XvPSettlementCreated; approvals, executions and cancellations their receipt alone.
import { parseEventLogs } from "viem";
import { XvPSettlementFactoryAbi } from "../../abis/XvPSettlementFactory.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const MUTATION_KINDS: Record<string, MutationKind> = {
  "xvpSettlement.create": {
    result(receipt) {
      const [created] = parseEventLogs({
        abi: XvPSettlementFactoryAbi,
        logs: receipt.logs,
        eventName: "XvPSettlementCreated",
      });
      if (!created) throw new Error("XvPSettlementCreated missing from the receipt");
      return { settlementAddress: created.args.settlement };
    },
  },
  "xvpSettlement.approve": {},
  "xvpSettlement.execute": {},
  "xvpSettlement.cancel": {},
};
