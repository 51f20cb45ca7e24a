// The schedules' chain writes; the creation's receipt yields the completed envelope's data.scheduleAddress.
import { addonCreationKind } from "../../host/addons/created-result.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const fixedYieldMutationKinds: Record<string, MutationKind> = {
  "fixedYieldSchedule.create": addonCreationKind("scheduleAddress"),
  "fixedYieldSchedule.topUp": {},
  "fixedYieldSchedule.withdraw": {},
  "fixedYieldSchedule.claim": {},
};
