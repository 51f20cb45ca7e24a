// GET /api/v2/tokens/{tokenAddress}/holders: accounts with a balance, on the collection engine (raw units).
import { z } from "@hono/zod-openapi";
import { sql } from "kysely";
import type { Address } from "viem";
import { requestChain } from "../../host/chain/request-chain.ts";
import { collectionPage, collectionRoute, defineCollection } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { findOrgToken, holderBalances } from "./routes.ts";

const HOLDER_COLLECTION = defineCollection({
  fields: {
    account: { column: "account", type: "text", sortable: true, normalize: (v) => v.toLowerCase() },
    value: { column: "value", type: "bigint", sortable: true },
    available: { column: "available", type: "bigint", sortable: true },
    frozen: { column: "frozen", type: "bigint", sortable: true },
    isFrozen: { column: "isFrozen", type: "boolean", facet: true },
    lastUpdatedAt: { column: "lastUpdated", type: "timestamp", sortable: true },
  },
  search: ["account"],
  defaultSort: "-value",
  tiebreaker: "account",
});

const HolderSchema = z
  .object({
    account: z.object({ id: z.string() }),
    value: z.string().openapi({ description: "raw units" }),
    available: z.string().openapi({ description: "value - frozen, raw units" }),
    frozen: z.string().openapi({ description: "partially frozen amount, raw units" }),
    isFrozen: z.boolean().openapi({ description: "the whole address is frozen" }),
    lastUpdatedAt: z.string(),
  })
  .openapi("TokenHolder");

const listHolders = collectionRoute({
  path: "/api/v2/tokens/{tokenAddress}/holders",
  tags: ["token"],
  summary: "List the token's holders (largest balance first)",
  description: "Accounts with a positive balance. Amounts are raw units; available = value - frozen. Facet: isFrozen.",
  permission: "token:read",
  params: z.object({ tokenAddress: AddressSchema }),
  collection: HOLDER_COLLECTION,
  item: HolderSchema,
  listed: "The holders",
});

export function holderRoutes(app: App, ctx: PluginContext) {
  app.openapi(listHolders, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const balances = async () => {
      const chain = await requestChain(c, ctx);
      const token = await findOrgToken(chain, tokenAddress);
      return chain.ledger
        .selectFrom(
          holderBalances(chain, token.id as Address)
            .selectAll()
            .select([
              sql<bigint>`greatest(value - frozen, 0)`.as("available"),
              sql<Date>`to_timestamp(last_updated_at)`.as("lastUpdated"),
            ])
            .as("b"),
        )
        .selectAll();
    };
    const page = await collectionPage(c, HOLDER_COLLECTION, balances, (rows) =>
      rows.map((r) => ({
        account: { id: r.account },
        value: r.value.toString(),
        available: r.available.toString(),
        frozen: r.frozen.toString(),
        isFrozen: r.isFrozen,
        lastUpdatedAt: r.lastUpdated.toISOString(),
      })),
    );
    return c.json(page, 200);
  });
}
