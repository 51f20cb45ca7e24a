// GET /api/v2/tokens: the organisation's tokens on the request's chain, on the collection engine.
import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { collectionRoute, systemCollection } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { FeatureIdSchema } from "./schemas.ts";
import { systemTokens, TOKEN_COLLECTION, type TokenListRow } from "./token-collection.ts";

const TokenListItemSchema = z
  .object({
    id: z.string().openapi({ description: "The token's address, lowercase" }),
    address: z.string().openapi({ description: "The token's address, checksummed" }),
    chainId: z.number().int(),
    name: z.string(),
    symbol: z.string(),
    decimals: z.number().int(),
    template: z.string().openapi({ description: "The token template it was created from, e.g. bond, deposit" }),
    features: z.array(FeatureIdSchema).openapi({ description: "Attached feature ids, in attachment order" }),
    totalSupply: z.string().openapi({ description: "raw units (divide by 10^decimals)" }),
    paused: z.boolean(),
    createdBy: z.object({ id: z.string() }),
    deployedInTransaction: z.string(),
    createdAt: z.string(),
  })
  .openapi("TokenListItem");

function toListItem(row: TokenListRow): z.infer<typeof TokenListItemSchema> {
  return {
    id: row.id,
    address: getAddress(row.id),
    chainId: row.chainId,
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    template: row.type,
    features: row.featureIds as z.infer<typeof FeatureIdSchema>[],
    totalSupply: row.totalSupply.toString(),
    paused: row.paused,
    createdBy: { id: row.createdBy },
    deployedInTransaction: row.deployedInTransaction,
    createdAt: row.createdTime.toISOString(),
  };
}

const listTokens = collectionRoute({
  path: "/api/v2/tokens",
  tags: ["token"],
  summary: "List the organisation's tokens on the request's chain, newest first",
  description:
    "The tokens of the organisation's system on the chain of X-Chain-Id (default: the organisation's network), " +
    "from the index. Filter by name, symbol, template, feature (`filter[feature]=permit`: tokens carrying it), " +
    "address, decimals, totalSupply (raw units), paused and createdAt; `filter[q]` searches name, symbol and " +
    "address. Facets: template, feature (a token counts once per feature it carries) and paused. A token's " +
    "feature values, holders and compliance modules: GET /api/v2/tokens/{address}.",
  permission: "token:read",
  collection: TOKEN_COLLECTION,
  item: TokenListItemSchema,
  listed: "The tokens; facets template, feature, paused",
});

export function tokenListRoute(app: App, ctx: PluginContext) {
  app.openapi(listTokens, async (c) => {
    return c.json(await systemCollection(c, ctx, TOKEN_COLLECTION, systemTokens, (rows) => rows.map(toListItem)), 200);
  });
}
