// A participant's activity feed and its metrics: events matching any of its wallets. The participant reads its own;
// others need activity:read-others (identityManager, claimIssuer), else they get the valid empty answer.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ACTIVITY_COLLECTION, ActivityEventSchema } from "../../host/activity/activity-feed.ts";
import { ActivityMetricsSchema, ActivityRangeQuerySchema } from "../../host/activity/activity-metrics.ts";
import { feedMetrics, feedPage, type ReadableFeed } from "../../host/activity/feed-responses.ts";
import { hasPermission } from "../../host/auth/permissions.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { collectionRoute } from "../../host/collections/index.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { errorResponses, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import { findParticipant } from "../../host/participants/find-participant.ts";
import type { PluginContext } from "../../host/plugin.ts";

const ParticipantParamsSchema = z.object({
  participantId: z
    .string()
    .min(1)
    .openapi({ param: { name: "participantId", in: "path" } }),
});

const listActivities = collectionRoute({
  path: "/api/v2/participants/{participantId}/activities",
  tags: ["participants"],
  summary:
    "A participant's activity: events where any of its wallets is sender, account, emitter, token, involved or meta-transaction signer",
  description:
    "Newest first by default. A caller reading another participant's feed without identityManager or claimIssuer gets an empty feed.",
  permission: "activity:read",
  params: ParticipantParamsSchema,
  collection: ACTIVITY_COLLECTION,
  item: ActivityEventSchema,
  listed: "The participant's activity events; facet eventName",
});

const activityMetrics = createRoute({
  method: "get",
  path: "/api/v2/participants/{participantId}/activity-metrics",
  tags: ["participants"],
  summary: "A participant's activity per hour or day: every bucket of the window, 0 when quiet",
  middleware: [requirePermission("activity:read")],
  request: { params: ParticipantParamsSchema, query: ActivityRangeQuerySchema },
  responses: {
    200: jsonResponse(z.object({ data: ActivityMetricsSchema, links: linksSelf }), "The time series"),
    ...errorResponses,
  },
});

/** The participant's feed as the caller may read it. */
async function participantFeed(c: Context<AppEnv>, ctx: PluginContext, participantId: string): Promise<ReadableFeed> {
  const chain = await requestChain(c, ctx.db.platform, [ctx.chain.chainId]);
  const participant = await findParticipant(c, ctx.db.ledger, ctx.config.INDEX_VIEWS_SCHEMA, chain, participantId);
  const { userId, roles } = c.get("principal");
  // The acting participant (X-Participant, checked by the host) reads its own feed.
  const acting = c.get("requestContext")?.participantId ?? userId;
  const own = participant.kind === "person" && participant.id === acting;
  if (!own && !hasPermission(roles, "activity:read-others")) return null;
  return { system: chain.systemAddress, addresses: participant.wallets, feed: "participant" };
}

export function participantActivityRoutes(app: App, ctx: PluginContext) {
  app.openapi(listActivities, async (c) => {
    const feed = await participantFeed(c, ctx, c.req.valid("param").participantId);
    return c.json(await feedPage(c, ctx.db.ledger, feed), 200);
  });
  app.openapi(activityMetrics, async (c) => {
    const feed = await participantFeed(c, ctx, c.req.valid("param").participantId);
    return c.json(await feedMetrics(c, ctx.db.ledger, feed, c.req.valid("query")), 200);
  });
}
