// The answers of the activity routes (participant and account feeds alike). A caller without read access to the
// feed, or a feed with no address, gets the valid empty answer: no events, total 0, a flat series.
import type { Context } from "hono";
import { parseCollectionQuery, runCollection } from "../collections/index.ts";
import type { LedgerDb } from "../db/database.ts";
import type { AppEnv } from "../http/env.ts";
import { collection, single } from "../http/envelopes.ts";
import { ACTIVITY_COLLECTION, type FeedScope, feedCounts, feedEvents, toActivityEvent } from "./activity-feed.ts";
import { type ActivityRangeQuery, activityRange, activitySeries, countWindow } from "./activity-metrics.ts";

/** The feed to read, or null when the caller may not read it. */
export type ReadableFeed = FeedScope | null;

export async function feedPage(c: Context<AppEnv>, db: LedgerDb, feed: ReadableFeed) {
  const query = parseCollectionQuery(new URL(c.req.url).searchParams, ACTIVITY_COLLECTION);
  if (!feed || feed.addresses.length === 0) {
    return collection(c, [], 0, query.page, { eventName: [] });
  }
  const { rows, total, facets } = await runCollection(feedEvents(db, feed), query, ACTIVITY_COLLECTION);
  return collection(
    c,
    rows.map((row) => toActivityEvent(row, feed.feed)),
    total,
    query.page,
    facets,
  );
}

export async function feedMetrics(c: Context<AppEnv>, db: LedgerDb, feed: ReadableFeed, query: ActivityRangeQuery) {
  const range = activityRange(query);
  const window = countWindow(range);
  const counts = feed && feed.addresses.length > 0 && window ? await feedCounts(db, feed, window) : new Map();
  return single(c, activitySeries(range, counts));
}
