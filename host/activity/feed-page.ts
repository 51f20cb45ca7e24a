// One page of an activity feed in one round trip: PostgreSQL filters the links, counts them, builds the eventName
// facet and renders the page's events in the API's JSON shape (ActivityEventSchema), so the host
// only splices three JSON texts into the envelope. The hot read path of the feeds: no per-row work in Node.
import { sql } from "kysely";
import { type CollectionQuery, filterCollection } from "../collections/index.ts";
import type { LedgerDb } from "../db/database.ts";
import { ACTIVITY_COLLECTION, type ActivityFeed, type FeedScope, feedLinks } from "./activity-feed.ts";

const ref = (column: string) =>
  sql`case when ev.${sql.raw(column)} is null then null else json_build_object('id', ev.${sql.raw(column)}) end`;

/** The event as ActivityEventSchema documents it; actualGasCost per feed (participant: sponsored operations only). */
function eventJson(feed: ActivityFeed) {
  const showGasCost =
    feed === "account"
      ? sql`ev.relayer_kind = 'user-operation'`
      : sql`ev.relayer_kind = 'user-operation' and ev.paymaster is not null`;
  return sql`json_build_object(
    'id', ev.id,
    'eventName', ev.event_name,
    'blockNumber', ev.block_number::text,
    'blockTimestamp', to_char(to_timestamp(ev.block_timestamp) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'txIndex', ev.log_index::text,
    'transactionHash', ev.transaction_hash,
    'emitter', json_build_object('id', ev.emitter),
    'sender', json_build_object('id', ev.sender),
    'displaySender', json_build_object('id', ev.display_sender),
    'metaTxSigner', ${ref("meta_tx_signer")},
    'relayerKind', ev.relayer_kind,
    'relayer', ${ref("relayer")},
    'userOpHash', ev.user_op_hash,
    'paymaster', ${ref("paymaster")},
    'actualGasCost', case when ${showGasCost} then ev.actual_gas_cost::text else null end,
    'involved', (select coalesce(json_agg(json_build_object('id', x)), '[]'::json) from unnest(ev.involved) x),
    'values', (select coalesce(json_agg(json_build_object('id', ev.id || '-' || (v ->> 'name'), 'name', v ->> 'name',
      'value', v ->> 'value')), '[]'::json) from json_array_elements(ev.values::json) v)
  )`;
}

export interface FeedPageJson {
  total: number;
  /** JSON texts: the page's events, and the eventName facet's buckets. */
  data: string;
  eventNameFacet: string;
}

export async function feedPageJson(db: LedgerDb, scope: FeedScope, query: CollectionQuery): Promise<FeedPageJson> {
  const links = filterCollection(feedLinks(db, scope).selectAll("e"), query, ACTIVITY_COLLECTION);
  // Sort columns and direction come from the collection's declaration, never from the query text itself.
  const key = sql.raw(query.sort.field === "blockNumber" ? "block_number" : "block_timestamp");
  const direction = sql.raw(query.sort.direction === "desc" ? "desc" : "asc");
  // As a builder (not a raw table name) so the ledger's views schema applies; PostgreSQL inlines the subquery.
  const events = db.selectFrom("activityEvent").selectAll();
  const { rows } = await sql<{ total: string; facet: string; data: string }>`
    with l as materialized (${links}),
    page as (
      select id, ordinal, ${key} as k from l order by ${key} ${direction}, ordinal ${direction}
      limit ${query.page.limit} offset ${query.page.offset}
    )
    select
      (select count(*) from l)::text as total,
      (select coalesce(json_agg(json_build_object('value', f.event_name, 'count', f.n) order by f.n desc, f.event_name),
        '[]'::json) from (select event_name, count(*) as n from l group by event_name) f)::text as facet,
      (select coalesce(json_agg(${eventJson(scope.feed)} order by p.k ${direction}, p.ordinal ${direction}), '[]'::json)
        from page p join (${events}) ev on ev.id = p.id)::text as data`.execute(db);
  const [row] = rows;
  return { total: Number(row.total), data: row.data, eventNameFacet: row.facet };
}
