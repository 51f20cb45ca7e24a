// The two routes of an activity feed (events and metrics) for any subject: a participant, an account. The subject's
// plugin says where they live and which feed the caller may read; the shapes, parsing and answers are the same.
import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { collectionRoute } from "../../host/collections/index.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { singleResponses } from "../../host/http/schemas.ts";
import { ACTIVITY_COLLECTION, ActivityEventSchema } from "./activity-feed.ts";
import { ActivityMetricsSchema, type ActivityRangeQuery, ActivityRangeQuerySchema } from "./activity-metrics.ts";
import { feedMetrics, feedPage, type ReadableFeed } from "./feed-responses.ts";

export interface FeedRoutes<P extends z.ZodObject> {
  /** e.g. `/api/v2/participants/{participantId}`; the routes are `<base>/activities` and `<base>/activity-metrics`. */
  base: string;
  tags: string[];
  /** Whose activity, for the summaries (e.g. "A participant's"). */
  subject: string;
  description: string;
  params: P;
  /**
   * The feed the caller may read, with the request chain's index (null: the valid empty answer); throws for an
   * unknown subject.
   */
  feed: (c: Context<AppEnv>, params: z.infer<P>) => Promise<ReadableFeed>;
}

export function feedRoutes<P extends z.ZodObject>(app: App, def: FeedRoutes<P>) {
  const list = collectionRoute({
    path: `${def.base}/activities`,
    tags: def.tags,
    summary: `${def.subject} activity events, newest first`,
    description: def.description,
    permission: "activity:read",
    params: def.params,
    collection: ACTIVITY_COLLECTION,
    item: ActivityEventSchema,
    listed: "The activity events; facet eventName",
  });
  const metrics = createRoute({
    method: "get",
    path: `${def.base}/activity-metrics`,
    tags: def.tags,
    summary: `${def.subject} activity per hour or day: every bucket of the window, 0 when quiet`,
    description: def.description,
    middleware: [requirePermission("activity:read")],
    request: { params: def.params, query: ActivityRangeQuerySchema },
    responses: singleResponses(ActivityMetricsSchema, "The time series"),
  });
  // The route generics do not carry P through createRoute; params and query were validated by their schemas.
  const paramsOf = (c: Context<AppEnv>) => c.req.param() as z.infer<P>;
  // The page arrives as JSON text (feed-responses.ts); its shape is the route's, ActivityEventSchema's per event.
  app.openapi(list, (async (c: Context<AppEnv>) => feedPage(c, await def.feed(c, paramsOf(c)))) as never);
  app.openapi(metrics, async (c) =>
    c.json(
      await feedMetrics(c, await def.feed(c, paramsOf(c)), c.req.valid("query" as never) as ActivityRangeQuery),
      200,
    ),
  );
}
