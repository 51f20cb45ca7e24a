// The answers of the activity routes (participant and account feeds alike). A caller without read access to the
// feed, or a feed with no address, gets the valid empty answer: no events, total 0, a flat series.
import type { Context } from "hono";
import { parseCollectionQuery } from "../collections/index.ts";
import type { LedgerDb } from "../db/database.ts";
import type { AppEnv } from "../http/env.ts";
import { collection, single } from "../http/envelopes.ts";
import { ACTIVITY_COLLECTION, type FeedScope, feedCounts } from "./activity-feed.ts";
import { type ActivityRangeQuery, activityRange, activitySeries, countWindow } from "./activity-metrics.ts";
import { feedPageJson } from "./feed-page.ts";

/** The feed to read, or null when the caller may not read it. */
export type ReadableFeed = FeedScope | null;

/** The feed's page as the collection envelope; the events and facet arrive as JSON text from the database. */
export async function feedPage(c: Context<AppEnv>, db: LedgerDb, feed: ReadableFeed): Promise<Response> {
  const query = parseCollectionQuery(new URL(c.req.url).searchParams, ACTIVITY_COLLECTION);
  if (!feed || feed.addresses.length === 0) {
    return c.json(collection(c, [], 0, query.page, { eventName: [] }), 200);
  }
  const { total, data, eventNameFacet } = await feedPageJson(db, feed, query);
  const { links } = collection(c, [], total, query.page);
  const body = `{"data":${data},"meta":{"total":${total},"facets":{"eventName":${eventNameFacet}}},"links":${JSON.stringify(links)}}`;
  return c.body(body, 200, { "content-type": "application/json" });
}

export async function feedMetrics(c: Context<AppEnv>, db: LedgerDb, feed: ReadableFeed, query: ActivityRangeQuery) {
  const range = activityRange(query);
  const window = countWindow(range);
  const counts = feed && feed.addresses.length > 0 && window ? await feedCounts(db, feed, window) : new Map();
  return single(c, activitySeries(range, counts));
}
