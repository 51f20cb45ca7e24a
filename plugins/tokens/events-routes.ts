// GET /api/v2/tokens/{tokenAddress}/events: the token's event log on the collection engine, newest first.
import { z } from "@hono/zod-openapi";
import type { Address } from "viem";
import { requestChain } from "../../host/chain/request-chain.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { TOKEN_EVENT_COLLECTION, TokenEventSchema, tokenEvents, toTokenEvent } from "./events-collection.ts";
import { findOrgToken } from "./routes.ts";

const listEvents = collectionRoute({
  path: "/api/v2/tokens/{tokenAddress}/events",
  tags: ["token"],
  summary: "List the token's events (newest first)",
  description:
    "Filters: eventName, sender, emitter, transactionHash, involved (an account the event concerns), blockNumber, " +
    "blockTimestamp and createdAt (ISO 8601); `filter[q]` searches eventName and transactionHash. Facet: eventName.",
  permission: "token:read",
  params: z.object({ tokenAddress: AddressSchema }),
  collection: TOKEN_EVENT_COLLECTION,
  item: TokenEventSchema,
  listed: "The events",
});

export function eventRoutes(app: App, ctx: PluginContext) {
  app.openapi(listEvents, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const ofToken = async () => {
      const chain = await requestChain(c, ctx);
      const token = await findOrgToken(chain, tokenAddress);
      return tokenEvents(chain.ledger).where("token", "=", token.id as Address);
    };
    return c.json(await collectionPage(c, TOKEN_EVENT_COLLECTION, ofToken, (rows) => rows.map(toTokenEvent)), 200);
  });
}
