// Redemption at maturity: the signing wallet redeems its tokens through the token's maturity-redemption feature
// (its tokens are burnt; the face value comes from the treasury in the denomination asset).
import { encodeFunctionData, getAddress } from "viem";
import { MaturityRedemptionFeatureAbi } from "../../abis/MaturityRedemptionFeature.ts";
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { RedemptionBodySchema } from "./operations-schemas.ts";
import { attachedFeature } from "./routes.ts";
import { tokenWriteRoute } from "./write-route.ts";

export function redemptionRoutes(app: App, ctx: PluginContext) {
  tokenWriteRoute(app, ctx, {
    method: "post",
    path: "redemptions",
    summary: "Redeem at maturity (POST /tokens/{tokenAddress}/redemptions; maturity-redemption feature)",
    description:
      "Body `{amount}` (raw token units): the signing wallet's tokens are burnt and it receives the face value from " +
      "the treasury. Tokens without the maturity-redemption feature answer 404 TOKEN_FEATURE_NOT_ATTACHED; before " +
      "the maturity date the contract refuses (NotMatured).",
    permission: "token:transfer",
    body: RedemptionBodySchema,
    kind: "token.redeem",
    target: async (token, chain) => getAddress((await attachedFeature(chain, token, "maturity-redemption")).id),
    encode: (b) =>
      encodeFunctionData({ abi: MaturityRedemptionFeatureAbi, functionName: "redeem", args: [BigInt(b.amount)] }),
  });
}
