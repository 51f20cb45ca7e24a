// PUT /api/v2/token/{address}/features/{featureId}: a delta of governance-controlled parameters, merged over the
// current values (formatted from the index), validated and sent as the feature's updateParameters (asynchronous,
// a mutation).

import { createRoute, z } from "@hono/zod-openapi";
import { type Address, encodeFunctionData, getAddress } from "viem";
import { AumFeeFeatureAbi } from "../../abis/AumFeeFeature.ts";
import {
  encodeFeatureParams,
  featureConfigSchema,
  featureParameterNames,
} from "../../domain/features/feature-params.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { ApiError, badRequest } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import {
  AddressSchema,
  mutationResponses,
  WalletSelectionFields,
  WalletVerificationSchema,
} from "../../host/http/schemas.ts";
import { zodIssues } from "../../host/http/validation.ts";
import { submitChainWrite, walletSelectionOf } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { assetDecimals } from "./feature-configs.ts";
import { featureConfig } from "./feature-values.ts";
import { attachedFeature, findOrgToken } from "./routes.ts";
import { FeatureIdSchema } from "./schemas.ts";

const FeatureUpdateBodySchema = z
  .object({
    parameters: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The parameters to change, in the shape of the feature's featureConfigs entry" }),
    walletVerification: WalletVerificationSchema.optional(),
    ...WalletSelectionFields,
  })
  .strict()
  .openapi("TokenFeatureUpdateRequest");

const updateFeatureAt = (path: string) =>
  createRoute({
    method: "put",
    path,
    tags: ["token"],
    summary: "Change a feature's governance-controlled parameters (asynchronous)",
    middleware: [requirePermission("token:governance")],
    request: {
      params: z.object({ address: AddressSchema, featureId: FeatureIdSchema }),
      body: { required: true, content: { "application/json": { schema: FeatureUpdateBodySchema } } },
    },
    responses: mutationResponses,
  });

export function featureUpdateRoutes(app: App, ctx: PluginContext) {
  for (const path of [
    "/api/v2/token/{address}/features/{featureId}",
    "/api/v2/tokens/{address}/features/{featureId}",
  ]) {
    app.openapi(updateFeatureAt(path), async (c) => {
      const { address, featureId } = c.req.valid("param");
      const body = c.req.valid("json");
      const chain = await requestChain(c, ctx);
      const token = await findOrgToken(chain, address);
      const feature = await attachedFeature(chain, token, featureId);
      if (featureParameterNames(featureId).length === 0) {
        throw new ApiError("TOKEN_FEATURE_HAS_NO_PARAMETERS", { details: { featureId } });
      }
      const parsed = featureConfigSchema(featureId).safeParse({
        ...(await featureConfig(chain, feature, token.decimals)),
        ...body.parameters,
      });
      if (!parsed.success) {
        const issues = zodIssues(parsed.error, ["parameters"]);
        throw badRequest(`Invalid parameter at ${issues[0].path}: ${issues[0].message}`, issues);
      }
      const config = parsed.data as Record<string, unknown>;
      const decimalsOf = await assetDecimals(chain, new Map([[featureId, config]]), token.decimals);
      const params = encodeFeatureParams(featureId, config, decimalsOf);
      await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
      return submitChainWrite(c, ctx, {
        chainId: chain.chainId,
        kind: "token.feature.update",
        to: getAddress(feature.id) as Address,
        // Every feature shares TokenFeature's updateParameters(bytes).
        data: encodeFunctionData({ abi: AumFeeFeatureAbi, functionName: "updateParameters", args: [params] }),
        walletSelection: walletSelectionOf(body),
      });
    });
  }
}
