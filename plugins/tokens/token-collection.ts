// How the organisation's tokens are listed: filters, sorts, search and the facets template and feature.
import { sql } from "kysely";
import { ARRAY_MEMBERSHIP_OPERATORS, arrayMembership, defineCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";

/** Columns of `systemTokens`. */
export const TOKEN_COLLECTION = defineCollection({
  fields: {
    name: { column: "name", type: "text", sortable: true },
    symbol: { column: "symbol", type: "text", sortable: true },
    /** The template the token was created from (the index's token type). */
    template: { column: "type", type: "text", sortable: true, facet: true },
    feature: {
      column: "featureIds",
      type: "text",
      facet: true,
      facetElements: true,
      filter: { operators: ARRAY_MEMBERSHIP_OPERATORS },
      condition: arrayMembership("featureIds"),
    },
    address: { column: "id", type: "text", sortable: true, normalize: (v) => v.toLowerCase() },
    decimals: { column: "decimals", type: "number", sortable: true },
    totalSupply: { column: "totalSupply", type: "bigint", sortable: true },
    paused: { column: "paused", type: "boolean", facet: true },
    createdAt: { column: "createdTime", type: "timestamp", sortable: true },
  },
  search: ["name", "symbol", "address"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
  // Every token is created from a template: the template buckets add up to the total.
  totalFromFacet: "template",
});

/** The tokens of `system`, with their creation time as a timestamp; unpaged and unordered (the engine adds those). */
export function systemTokens(ledger: LedgerDb, system: string) {
  return ledger
    .selectFrom((db) =>
      db
        .selectFrom("token")
        .selectAll()
        .select(sql<Date>`to_timestamp(created_at)`.as("createdTime"))
        .where("system", "=", indexedHex(system))
        .as("t"),
    )
    .selectAll();
}

export type TokenListRow = Awaited<ReturnType<ReturnType<typeof systemTokens>["execute"]>>[number];
