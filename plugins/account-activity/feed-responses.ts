// The answers of the activity routes (participant and account feeds alike). A caller without read access to the
// feed, or a feed with no address, gets the valid empty answer: no events, total 0, a flat series. What a feed holds
// depends on the index alone, so its pages and counts are kept per index version (host/cache/indexed-reads.ts).
import type { Context } from "hono";
import { indexedRead } from "../../host/cache/indexed-reads.ts";
import { parseCollectionQuery, runCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import type { AppEnv } from "../../host/http/env.ts";
import { collection, single } from "../../host/http/envelopes.ts";
import {
  ACTIVITY_COLLECTION,
  eventsOfPage,
  type FeedScope,
  feedCounts,
  feedEvents,
  toActivityEvent,
} from "./activity-feed.ts";
import { type ActivityRangeQuery, activityRange, activitySeries, countWindow } from "./activity-metrics.ts";

/** The feed to read and the index of the request's chain it is read from, or null when the caller may not read it. */
export type ReadableFeed = (FeedScope & { ledger: LedgerDb }) | null;

/**
 * The page's answer. A non-empty page is kept per index version as the response body itself, keyed by the URL (its
 * links are the URL's) and the feed: a 50-event page is ~50 KB of JSON, not to be serialised for every reader.
 */
export async function feedPage(c: Context<AppEnv>, feed: ReadableFeed): Promise<Response> {
  const url = new URL(c.req.url);
  const query = parseCollectionQuery(url.searchParams, ACTIVITY_COLLECTION);
  if (!feed || feed.addresses.length === 0) return c.json(collection(c, [], 0, query.page, { eventName: [] }), 200);
  const body = await indexedRead(c, `feed-page ${feedKey(feed)} ${url.pathname}${url.search}`, async () => {
    const { rows, total, facets } = await runCollection(feedEvents(feed.ledger, feed), query, ACTIVITY_COLLECTION);
    const events = await eventsOfPage(feed.ledger, rows);
    const page = collection(
      c,
      events.map((event) => toActivityEvent(event, feed.feed)),
      total,
      query.page,
      facets,
    );
    return Buffer.from(JSON.stringify(page));
  });
  return c.body(body, 200, { "content-type": "application/json" });
}

/** Everything a feed's rows depend on besides the index. */
function feedKey(feed: FeedScope): string {
  return `${feed.feed} ${feed.system} ${feed.addresses.join(",")}`;
}

export async function feedMetrics(c: Context<AppEnv>, feed: ReadableFeed, query: ActivityRangeQuery) {
  const range = activityRange(query);
  const window = countWindow(range);
  const counts =
    feed && feed.addresses.length > 0 && window
      ? await indexedRead(c, `feed-counts ${feedKey(feed)} ${JSON.stringify(window)}`, () =>
          feedCounts(feed.ledger, feed, window),
        )
      : new Map<number, number>();
  return single(c, activitySeries(range, counts));
}
