// The token chain writes and what their receipts yield.
import { parseEventLogs } from "viem";
import { SystemFactoryAbi } from "../../abis/SystemFactory.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const tokenMutationKinds: Record<string, MutationKind> = {
  "token.create": {
    // The spec's "Idempotency conflicts on token creation": the token payload is not the deduplication boundary.
    idempotencyIgnoresPayload: true,
    result(receipt) {
      const [created] = parseEventLogs({ abi: SystemFactoryAbi, logs: receipt.logs, eventName: "TokenCreated" });
      if (!created) throw new Error("TokenCreated missing from the receipt");
      return { tokenAddress: created.args.token };
    },
  },
  "token.mint": {},
  "token.feature.update": {},
  // Token operations (plugins/tokens/operations-routes.ts and beside it): their effect is read from the index.
  "token.burn": {},
  "token.transfer": {},
  "token.approve": {},
  "token.redeem": {},
  "token.transfer.forced": {},
  "token.address.freeze": {},
  "token.address.unfreeze": {},
  "token.balance.freeze": {},
  "token.balance.unfreeze": {},
  "token.pause": {},
  "token.unpause": {},
  "token.metadata.update": {},
  "token.document.set": {},
  "token.document.remove": {},
  "token.permit": {},
};
