// Redemption at maturity: the signing wallet redeems its tokens through the token's maturity-redemption feature
// (its tokens are burnt; the face value comes from the treasury in the denomination asset).
import { type Address, encodeFunctionData, getAddress } from "viem";
import { MaturityRedemptionFeatureAbi } from "../../abis/MaturityRedemptionFeature.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { RedemptionBodySchema } from "./operations-schemas.ts";
import { tokenWriteRoute } from "./write-route.ts";

const MATURITY_REDEMPTION = "maturity-redemption";

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
    target: async (token) => {
      const feature = await ctx.db.ledger
        .selectFrom("tokenFeature")
        .select("id")
        .where("token", "=", token.id as Address)
        .where("featureId", "=", MATURITY_REDEMPTION)
        .executeTakeFirst();
      if (!feature) {
        throw new ApiError("TOKEN_FEATURE_NOT_ATTACHED", {
          message: "The token does not have the maturity-redemption feature",
          details: { featureId: MATURITY_REDEMPTION, features: token.featureIds },
        });
      }
      return getAddress(feature.id);
    },
    encode: (b) =>
      encodeFunctionData({ abi: MaturityRedemptionFeatureAbi, functionName: "redeem", args: [BigInt(b.amount)] }),
  });
}
