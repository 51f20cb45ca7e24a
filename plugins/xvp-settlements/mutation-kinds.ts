// The settlement writes and what a completed one answers: the creation's data.settlementAddress from the
// root's AddonInstanceCreated; approvals, executions and cancellations their receipt alone.
import { addonCreationKind } from "../../host/addons/created-result.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const MUTATION_KINDS: Record<string, MutationKind> = {
  "xvpSettlement.create": addonCreationKind("settlementAddress"),
  "xvpSettlement.approve": {},
  "xvpSettlement.execute": {},
  "xvpSettlement.cancel": {},
};
