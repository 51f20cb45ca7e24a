import { createRoute, z } from "@hono/zod-openapi";
import { type Address, encodeFunctionData, getAddress } from "viem";
import { TokenAbi } from "../../abis/Token.ts";
import { TokenFactoryAbi } from "../../abis/TokenFactory.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import type { LedgerTables } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { collection, single } from "../../host/http/envelopes.ts";
import { AddressSchema, errorResponses, linksSelf, mutationResponses } from "../../host/http/schemas.ts";
import { submitChainWrite, walletSelectionOf } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { CreateTokenBodySchema, MintBodySchema, TokenSchema, TokenTemplateSchema } from "./schemas.ts";
import {
  DEPLOYABLE_FEATURES,
  findTemplate,
  LIBRARY_TEMPLATES,
  type TokenTemplate,
  undeployableFeatures,
} from "./templates.ts";

const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const PageQuery = z.object({
  "page[offset]": z.coerce.number().int().min(0).max(10_000).default(0),
  "page[limit]": z.coerce.number().int().min(1).max(200).default(50),
});

function toTemplate(t: TokenTemplate) {
  return { ...t, availableForCreation: t.requiredFeatures.every((f) => DEPLOYABLE_FEATURES.has(f)) };
}

export function toToken(row: LedgerTables["token"]) {
  return {
    id: row.id,
    address: getAddress(row.id),
    chainId: row.chainId,
    type: row.type,
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    totalSupply: row.totalSupply.toString(),
    holderCount: row.holderCount,
    features: [],
    system: row.system,
    createdBy: { id: row.createdBy },
    deployedInTransaction: row.deployedInTransaction,
    createdAt: new Date(Number(row.createdAt) * 1000).toISOString(),
  };
}

/** The token at `address` in the caller's system on the request chain, or TOKEN_NOT_FOUND. */
export async function findOrgToken(ctx: PluginContext, systemAddress: string, address: string) {
  const row = await ctx.db.ledger
    .selectFrom("token")
    .selectAll()
    .where("id", "=", address.toLowerCase() as Address)
    .where("system", "=", systemAddress.toLowerCase() as Address)
    .executeTakeFirst();
  if (!row) throw new ApiError("TOKEN_NOT_FOUND", { details: { address } });
  return row;
}

const listTemplates = createRoute({
  method: "get",
  path: "/api/v2/token-templates",
  tags: ["token"],
  summary: "List the token templates",
  middleware: [requirePermission("token:read")],
  request: { query: PageQuery },
  responses: {
    200: json(z.object({ data: z.array(TokenTemplateSchema) }).passthrough(), "Templates"),
    ...errorResponses,
  },
});

const createTokenAt = (path: string) =>
  createRoute({
    method: "post",
    path,
    tags: ["token"],
    summary: "Create a token from a template",
    middleware: [requirePermission("token:create")],
    request: { body: { required: true, content: { "application/json": { schema: CreateTokenBodySchema } } } },
    responses: mutationResponses,
  });

const getTokenAt = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["token"],
    summary: "Read a token from the index",
    middleware: [requirePermission("token:read")],
    request: { params: z.object({ address: AddressSchema }) },
    responses: { 200: json(z.object({ data: TokenSchema, links: linksSelf }), "The token"), ...errorResponses },
  });

const mintTokens = createRoute({
  method: "post",
  path: "/api/v2/tokens/{tokenAddress}/mint",
  tags: ["token"],
  summary: "Mint to one or more recipients (raw units)",
  middleware: [requirePermission("token:mint")],
  request: {
    params: z.object({ tokenAddress: AddressSchema }),
    body: { required: true, content: { "application/json": { schema: MintBodySchema } } },
  },
  responses: mutationResponses,
});

export function tokenRoutes(app: App, ctx: PluginContext) {
  const served = [ctx.chain.chainId];

  app.openapi(listTemplates, (c) => {
    const { "page[offset]": offset, "page[limit]": limit } = c.req.valid("query");
    const data = LIBRARY_TEMPLATES.slice(offset, offset + limit).map(toTemplate);
    return c.json(collection(c, data, LIBRARY_TEMPLATES.length, { offset, limit }), 200);
  });

  for (const path of ["/api/v2/tokens", "/api/v2/token"]) {
    app.openapi(createTokenAt(path), async (c) => {
      const body = c.req.valid("json");
      const template = findTemplate(body.templateId);
      if (!template) throw new ApiError("TOKEN_TEMPLATE_NOT_FOUND", { details: { templateId: body.templateId } });
      const configured = Object.keys(body.featureConfigs ?? {});
      const notAllowed = configured.filter((f) => !(template.allowedFeatures as string[]).includes(f));
      if (notAllowed.length) {
        throw new ApiError("BAD_REQUEST", {
          message: `Template ${template.id} does not allow the feature ${notAllowed[0]}`,
          details: {
            issues: notAllowed.map((f) => ({
              path: `featureConfigs.${f}`,
              message: "feature not allowed by the template",
            })),
          },
        });
      }
      const missing = undeployableFeatures(template, configured);
      if (missing.length) {
        throw new ApiError("TOKEN_FEATURE_UNAVAILABLE", {
          message: `The feature ${missing[0]} cannot be deployed on this platform version yet`,
          details: { features: missing, availableFeatures: [...DEPLOYABLE_FEATURES] },
        });
      }
      const chain = await requestChain(c, ctx.db.platform, served);
      await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
      return submitChainWrite(c, ctx, {
        chainId: chain.chainId,
        kind: "token.create",
        to: chain.tokenFactoryAddress,
        data: encodeFunctionData({
          abi: TokenFactoryAbi,
          functionName: "createToken",
          args: [template.id, body.name, body.symbol, body.decimals ?? template.defaults.decimals],
        }),
        walletSelection: walletSelectionOf(body),
      });
    });
  }

  for (const path of ["/api/v2/token/{address}", "/api/v2/tokens/{address}"]) {
    app.openapi(getTokenAt(path), async (c) => {
      const { address } = c.req.valid("param");
      const chain = await requestChain(c, ctx.db.platform, served);
      const token = await findOrgToken(ctx, chain.systemAddress, address);
      return c.json(single(c, toToken(token)), 200);
    });
  }

  app.openapi(mintTokens, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const body = c.req.valid("json");
    const { recipients, amounts, walletVerification } = body;
    const chain = await requestChain(c, ctx.db.platform, served);
    await findOrgToken(ctx, chain.systemAddress, tokenAddress);
    await verifyWalletForWrite(c, ctx.db.platform, walletVerification);
    return submitChainWrite(c, ctx, {
      chainId: chain.chainId,
      kind: "token.mint",
      to: getAddress(tokenAddress),
      data: encodeFunctionData({
        abi: TokenAbi,
        functionName: "batchMint",
        args: [recipients.map((r) => getAddress(r)), amounts.map((a) => BigInt(a))],
      }),
      walletSelection: walletSelectionOf(body),
    });
  });
}
