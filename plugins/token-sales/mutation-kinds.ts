// The token sale's chain writes; the creation's receipt yields the spec's completed `data.saleAddress`.
import { addonCreationKind } from "../../host/addons/created-result.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const tokenSaleMutationKinds: Record<string, MutationKind> = {
  "tokenSale.create": addonCreationKind("saleAddress"),
  "tokenSale.purchase": {},
  "tokenSale.withdraw": {},
};
