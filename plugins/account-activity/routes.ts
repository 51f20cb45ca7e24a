// An account's activity feed and metrics within the organisation's system: events where the address is the sender,
// account, emitter, token, system or an involved address. Callers without read access get the valid empty answer.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ACTIVITY_COLLECTION, ActivityEventSchema } from "../../host/activity/activity-feed.ts";
import { ActivityMetricsSchema, ActivityRangeQuerySchema } from "../../host/activity/activity-metrics.ts";
import { feedMetrics, feedPage, type ReadableFeed } from "../../host/activity/feed-responses.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { collectionRoute } from "../../host/collections/index.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { AddressSchema, errorResponses, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { mayReadAccount } from "./account-access.ts";

const AccountParamsSchema = z.object({
  accountAddress: AddressSchema.openapi({ param: { name: "accountAddress", in: "path" } }),
});

const listActivities = collectionRoute({
  path: "/api/v2/system/accounts/{accountAddress}/activities",
  tags: ["account"],
  summary: "An account's activity in the organisation's system, newest first",
  description:
    "Your own wallets; with identityManager or claimIssuer, any address of the organisation or an identity of its " +
    "system. Other callers get an empty feed.",
  permission: "activity:read",
  params: AccountParamsSchema,
  collection: ACTIVITY_COLLECTION,
  item: ActivityEventSchema,
  listed: "The account's activity events; facet eventName",
});

const activityMetrics = createRoute({
  method: "get",
  path: "/api/v2/system/accounts/{accountAddress}/activity-metrics",
  tags: ["account"],
  summary: "An account's activity per hour or day: every bucket of the window, 0 when quiet",
  middleware: [requirePermission("activity:read")],
  request: { params: AccountParamsSchema, query: ActivityRangeQuerySchema },
  responses: {
    200: jsonResponse(z.object({ data: ActivityMetricsSchema, links: linksSelf }), "The time series"),
    ...errorResponses,
  },
});

async function accountFeed(c: Context<AppEnv>, ctx: PluginContext, accountAddress: string): Promise<ReadableFeed> {
  const chain = await requestChain(c, ctx.db.platform, [ctx.chain.chainId]);
  const principal = c.get("principal");
  const acting = c.get("requestContext")?.participantId ?? principal.userId;
  const address = accountAddress.toLowerCase();
  if (!(await mayReadAccount(ctx, chain, principal, acting, address))) return null;
  return { system: chain.systemAddress, addresses: [address], feed: "account" };
}

export function accountActivityRoutes(app: App, ctx: PluginContext) {
  app.openapi(listActivities, async (c) => {
    const feed = await accountFeed(c, ctx, c.req.valid("param").accountAddress);
    return c.json(await feedPage(c, ctx.db.ledger, feed), 200);
  });
  app.openapi(activityMetrics, async (c) => {
    const feed = await accountFeed(c, ctx, c.req.valid("param").accountAddress);
    return c.json(await feedMetrics(c, ctx.db.ledger, feed, c.req.valid("query")), 200);
  });
}
