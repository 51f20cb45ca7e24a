// The token chain writes and what their receipts yield.
import { parseEventLogs } from "viem";
import { SystemFactoryAbi } from "../../abis/SystemFactory.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

export const tokenMutationKinds: Record<string, MutationKind> = {
  "token.create": {
    result(receipt) {
      const [created] = parseEventLogs({ abi: SystemFactoryAbi, logs: receipt.logs, eventName: "TokenCreated" });
      if (!created) throw new Error("TokenCreated missing from the receipt");
      return { tokenAddress: created.args.token };
    },
  },
  "token.mint": {},
  // Token operations (plugins/tokens/operations-routes.ts and beside it): their effect is read from the index.
  "token.burn": {},
  "token.transfer": {},
  "token.forcedTransfer": {},
  "token.freezeAddress": {},
  "token.unfreezeAddress": {},
  "token.freezeTokens": {},
  "token.unfreezeTokens": {},
  "token.pause": {},
  "token.unpause": {},
  "token.updateMetadata": {},
  "token.setDocument": {},
  "token.removeDocument": {},
  "token.permit": {},
};
