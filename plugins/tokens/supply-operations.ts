// The supply writes on a token: mint to and burn from a batch of holders (raw units).
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { BurnBodySchema, MintBodySchema } from "./operations-schemas.ts";
import { addresses, amounts, tokenCall } from "./token-calls.ts";
import { tokenOperation, tokenWriteRoute } from "./write-route.ts";
import { burnSummary, mintSummary } from "./write-summaries.ts";

export const mintOperation = tokenOperation({
  method: "post",
  path: "mint",
  summary: "Mint to one or more recipients (raw units)",
  permission: "token:mint",
  body: MintBodySchema,
  kind: "token.mint",
  encode: (b) => tokenCall({ functionName: "batchMint", args: [addresses(b.recipients), amounts(b.amounts)] }),
  describe: (token, b) => mintSummary(token, b.recipients, b.amounts),
});

export const burnOperation = tokenOperation({
  method: "post",
  path: "burn",
  summary: "Burn from holders (POST /tokens/{tokenAddress}/burn; batch, raw units)",
  description: "Body `{holders[], amounts[]}`. Needs the token's SUPPLY_MANAGEMENT_ROLE on the signing wallet.",
  permission: "token:burn",
  body: BurnBodySchema,
  kind: "token.burn",
  encode: (b) => tokenCall({ functionName: "batchBurn", args: [addresses(b.holders), amounts(b.amounts)] }),
  describe: (token, b) => burnSummary(token, b.holders, b.amounts),
});

export function supplyOperationRoutes(app: App, ctx: PluginContext) {
  tokenWriteRoute(app, ctx, mintOperation);
  tokenWriteRoute(app, ctx, burnOperation);
}
