// The token sale's chain writes; the creation's receipt yields the spec's completed `data.saleAddress`.
import { parseEventLogs } from "viem";
import { TokenSaleFactoryAbi } from "../../abis/TokenSaleFactory.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const tokenSaleMutationKinds: Record<string, MutationKind> = {
  "tokenSale.create": {
    result(receipt) {
      const [created] = parseEventLogs({ abi: TokenSaleFactoryAbi, logs: receipt.logs, eventName: "TokenSaleCreated" });
      if (!created) throw new Error("TokenSaleCreated missing from the receipt");
      return { saleAddress: created.args.sale };
    },
  },
  "tokenSale.purchase": {},
  "tokenSale.withdraw": {},
};
