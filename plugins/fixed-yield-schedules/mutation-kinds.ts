// The schedules' chain writes; the creation's receipt yields the completed envelope's data.scheduleAddress.
import { parseEventLogs } from "viem";
import { FixedYieldScheduleFactoryAbi } from "../../abis/FixedYieldScheduleFactory.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const fixedYieldMutationKinds: Record<string, MutationKind> = {
  "fixedYieldSchedule.create": {
    result(receipt) {
      const [created] = parseEventLogs({
        abi: FixedYieldScheduleFactoryAbi,
        logs: receipt.logs,
        eventName: "FixedYieldScheduleCreated",
      });
      if (!created) throw new Error("FixedYieldScheduleCreated missing from the receipt");
      return { scheduleAddress: created.args.schedule };
    },
  },
  "fixedYieldSchedule.topUp": {},
  "fixedYieldSchedule.withdraw": {},
  "fixedYieldSchedule.claim": {},
};
