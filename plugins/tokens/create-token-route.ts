// POST /api/v2/tokens (also /api/v2/token): reads the template, applies its defaults, overlays featureConfigs,
// checks the feature rules and the compliance template, then deploys through the token factory in one write.
import { createRoute } from "@hono/zod-openapi";
import { type Address, encodeFunctionData, getAddress, zeroAddress } from "viem";
import { TokenFactoryAbi } from "../../abis/TokenFactory.ts";
import { featureParameterNames } from "../../domain/features/feature-params.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { type RequestChain, requestChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { mutationResponses } from "../../host/http/schemas.ts";
import { submitChainWrite, walletSelectionOf } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { planCompliance } from "./compliance-plan.ts";
import { type PlannedFeature, planFeatures } from "./feature-configs.ts";
import { CreateTokenBodySchema } from "./schemas.ts";
import { resolveTokenTemplate } from "./template-store.ts";
import { LIBRARY_TEMPLATES } from "./templates.ts";

/** Per library template: its required features and the parameters a request must give (no default covers them). */
function libraryTemplateGuide(): string {
  const lines = LIBRARY_TEMPLATES.map((template) => {
    const needed = template.requiredFeatures.flatMap((id) => {
      const defaults = template.defaults.featureConfigs[id] ?? {};
      const missing = featureParameterNames(id).filter((name) => !(name in defaults));
      return missing.length ? [`featureConfigs.${id}: ${missing.join(", ")}`] : [];
    });
    const required = template.requiredFeatures.length ? template.requiredFeatures.join(", ") : "none";
    return `- \`${template.id}\` (decimals ${template.defaults.decimals}): requires ${required}; the request must give ${needed.length ? needed.join("; ") : "no feature parameter"}.`;
  });
  return lines.join("\n");
}

const DESCRIPTION =
  "Deploys a token through the token factory in one chain write: the template's required features with its " +
  "defaults overlaid by `featureConfigs` (every parameter typed per feature below), the feature dependency and " +
  "incompatibility rules (422 TOKEN_FEATURE_DEPENDENCY_MISSING, TOKEN_FEATURES_INCOMPATIBLE), then the compliance " +
  "template's controls with `complianceConfigs` overlaid (422 COMPLIANCE_TEMPLATE_NOT_APPLICABLE names the missing " +
  "parameters). A missing or invalid feature parameter answers 400 with every path in `data.issues`. The created " +
  "token's address is in the transaction request's `result` once mined.\n\nLibrary templates:\n" +
  libraryTemplateGuide();

const createTokenAt = (path: string) =>
  createRoute({
    method: "post",
    path,
    tags: ["token"],
    summary: "Create a token from a template, with features and a compliance template",
    description: DESCRIPTION,
    middleware: [requirePermission("token:create")],
    request: { body: { required: true, content: { "application/json": { schema: CreateTokenBodySchema } } } },
    responses: mutationResponses,
  });

/** conversion needs a target of this system carrying conversion-minter at the given address. */
async function checkConversionTarget(chain: RequestChain, features: PlannedFeature[]) {
  const conversion = features.find((f) => f.featureId === "conversion");
  if (!conversion) return;
  const target = String(conversion.config.targetToken).toLowerCase() as Address;
  const minter = String(conversion.config.conversionMinter).toLowerCase() as Address;
  const found = await chain.ledger
    .selectFrom("tokenFeature as f")
    .innerJoin("token as t", "t.id", "f.token")
    .select("f.id")
    .where("f.token", "=", target)
    .where("f.featureId", "=", "conversion-minter")
    .where("t.system", "=", chain.systemAddress.toLowerCase() as Address)
    .executeTakeFirst();
  if (!found || found.id !== minter) {
    throw new ApiError("TOKEN_FEATURE_CONVERSION_TARGET_INVALID", {
      message: `conversion.targetToken ${getAddress(target)} does not carry a conversion-minter at ${getAddress(minter)}`,
      details: { featureId: "conversion", targetToken: getAddress(target), conversionMinter: getAddress(minter) },
    });
  }
}

export function createTokenRoutes(app: App, ctx: PluginContext<"complianceTemplates">) {
  for (const path of ["/api/v2/tokens", "/api/v2/token"]) {
    app.openapi(createTokenAt(path), async (c) => {
      const body = c.req.valid("json");
      const { organizationId } = c.get("principal");
      const template = await resolveTokenTemplate(ctx.db.platform, organizationId, body.templateId);
      const decimals = body.decimals ?? template.defaults.decimals;
      const chain = await requestChain(c, ctx);
      const features = await planFeatures({
        chain,
        template,
        featureConfigs: body.featureConfigs ?? {},
        tokenDecimals: decimals,
      });
      await checkConversionTarget(chain, features);
      const modules = await planCompliance(ctx, chain, {
        organizationId,
        complianceTemplateId: body.complianceTemplateId ?? template.complianceTemplateId,
        complianceConfigs: body.complianceConfigs ?? {},
      });
      await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
      return submitChainWrite(c, ctx, {
        chainId: chain.chainId,
        kind: "token.create",
        to: chain.tokenFactoryAddress,
        data: encodeFunctionData({
          abi: TokenFactoryAbi,
          functionName: "createTokenWithFeatures",
          args: [
            template.id,
            body.name,
            body.symbol,
            decimals,
            features.map((f) => ({ featureId: f.featureId, params: f.params })),
            (chain.contracts.compliance as Address) ?? zeroAddress,
            modules,
          ],
        }),
        walletSelection: walletSelectionOf(body),
        description: `Create token ${body.name} (${body.symbol}) from template ${template.id}`,
      });
    });
  }
}
