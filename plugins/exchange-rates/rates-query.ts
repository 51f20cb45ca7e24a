// The current rate of a pair: the organisation's live override when there is one, else its system's feed (index).
import { formatUnits, getAddress } from "viem";
import type { Databases, LedgerDb } from "../../host/db/database.ts";
import { indexedHex, isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";
import { type OverrideRow, ratesDb } from "./tables.ts";

type FeedRow = LedgerTables["exchangeRateFeed"];
export interface Scope {
  organizationId: string;
  chainId: number;
  system: string;
  /** The index as the scope's chain sees it. */
  ledger: LedgerDb;
}
export interface Pair {
  baseCurrency: string;
  quoteCurrency: string;
}

const iso = (seconds: bigint | null) => (seconds === null ? null : isoFromSeconds(seconds));
const pairKey = (p: Pair) => `${p.baseCurrency}/${p.quoteCurrency}`;

/** The system's feeds (unpaged, unordered: the collection engine adds those). */
export function systemFeeds(ledger: LedgerDb, system: string) {
  return ledger.selectFrom("exchangeRateFeed").selectAll().where("system", "=", indexedHex(system));
}

export function liveOverrides(db: Databases, scope: Scope) {
  return ratesDb(db.platform)
    .selectFrom("exchangeRateOverrides")
    .selectAll()
    .where("organizationId", "=", scope.organizationId)
    .where("chainId", "=", scope.chainId)
    .where("removedAt", "is", null);
}

export function toExchangeRate(pair: Pair, feed: FeedRow | undefined, override: OverrideRow | undefined) {
  const feedAddress = feed ? getAddress(feed.id) : null;
  if (override) {
    return {
      ...pair,
      rate: override.rate,
      effectiveAt: new Date(override.effectiveAt).toISOString(),
      updatedAt: new Date(override.createdAt).toISOString(),
      feedAddress,
      source: "override" as const,
    };
  }
  const answer = feed?.latestAnswer ?? null;
  return {
    ...pair,
    rate: answer === null || !feed ? null : formatUnits(answer, feed.decimals),
    effectiveAt: iso(feed?.latestEffectiveAt ?? null),
    updatedAt: iso(feed?.latestUpdatedAt ?? null),
    feedAddress,
    source: "feed" as const,
  };
}

/** The list's page: each feed with the override that wins over it. */
export async function withOverrides(db: Databases, scope: Scope, feeds: FeedRow[]) {
  const overrides = feeds.length === 0 ? [] : await liveOverrides(db, scope).execute();
  const byPair = new Map(overrides.map((o) => [pairKey(o), o]));
  return feeds.map((feed) => {
    const pair = { baseCurrency: feed.baseCurrency, quoteCurrency: feed.quoteCurrency };
    return toExchangeRate(pair, feed, byPair.get(pairKey(pair)));
  });
}

/** One pair, or undefined when neither a feed nor an override holds it. */
export async function readPair(db: Databases, scope: Scope, pair: Pair) {
  const [feed, override] = await Promise.all([
    systemFeeds(scope.ledger, scope.system)
      .where("baseCurrency", "=", pair.baseCurrency)
      .where("quoteCurrency", "=", pair.quoteCurrency)
      .executeTakeFirst(),
    liveOverrides(db, scope)
      .where("baseCurrency", "=", pair.baseCurrency)
      .where("quoteCurrency", "=", pair.quoteCurrency)
      .executeTakeFirst(),
  ]);
  if (!feed && !override) return undefined;
  return toExchangeRate({ baseCurrency: pair.baseCurrency, quoteCurrency: pair.quoteCurrency }, feed, override);
}
