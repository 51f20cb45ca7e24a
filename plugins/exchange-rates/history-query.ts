// A pair's history: its feed's rounds (index views) and the organisation's overrides, set or removed, in one list.
import { sql } from "kysely";
import { formatUnits } from "viem";
import { chainViewsSchema } from "../../host/db/chain-views.ts";
import type { Databases } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import type { Pair, Scope } from "./rates-query.ts";

interface HistoryRow {
  id: string;
  source: "feed" | "override";
  answer: string | null;
  decimals: number | null;
  rate: string | null;
  effectiveAt: Date;
  updatedAt: Date;
  roundId: string | null;
  transactionHash: string | null;
  removedAt: Date | null;
}

/**
 * Unpaged and unordered (the collection engine adds those). Both schemas live in the platform's database; the rounds
 * are read from the views of the scope's chain.
 */
export function pairHistory(db: Databases, viewsSchema: string, scope: Scope, pair: Pair) {
  const rounds = sql.table(`${chainViewsSchema(viewsSchema, scope.chainId)}.exchange_rate_round`);
  const union = sql<HistoryRow>`(
    select 'feed:' || r.id as id, 'feed' as source, r.answer::text as answer, r.decimals, null::text as rate,
      to_timestamp(r.effective_at::double precision) as effective_at,
      to_timestamp(r.block_timestamp::double precision) as updated_at,
      r.round_id::text as round_id, r.transaction_hash, null::timestamptz as removed_at
    from ${rounds} r
    where r.system = ${indexedHex(scope.system)} and r.base_currency = ${pair.baseCurrency}
      and r.quote_currency = ${pair.quoteCurrency}
    union all
    select 'override:' || o.id, 'override', null, null, o.rate, o.effective_at, o.created_at, null, null, o.removed_at
    from platform.exchange_rate_overrides o
    where o.organization_id = ${scope.organizationId} and o.chain_id = ${scope.chainId}
      and o.base_currency = ${pair.baseCurrency} and o.quote_currency = ${pair.quoteCurrency}
  )`;
  return db.platform.selectFrom(union.as("h")).selectAll();
}

export function toHistoryItem(row: HistoryRow) {
  return {
    id: row.id,
    source: row.source,
    rate: row.source === "feed" ? formatUnits(BigInt(row.answer ?? "0"), row.decimals ?? 0) : (row.rate ?? ""),
    effectiveAt: new Date(row.effectiveAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    roundId: row.roundId,
    transactionHash: row.transactionHash,
    removedAt: row.removedAt ? new Date(row.removedAt).toISOString() : null,
  };
}
