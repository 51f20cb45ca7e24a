// How rates and a pair's history are listed (collection query: filters, sort, facets, paging).
import { defineCollection } from "../../host/collections/index.ts";

/** Columns of the exchange_rate_feed view (rates-query.ts). */
export const RATE_COLLECTION = defineCollection({
  fields: {
    baseCurrency: { column: "baseCurrency", type: "text", sortable: true, facet: true },
    quoteCurrency: { column: "quoteCurrency", type: "text", sortable: true },
    feedAddress: { column: "id", type: "text", normalize: (v) => v.toLowerCase() },
  },
  search: ["baseCurrency", "quoteCurrency"],
  defaultSort: "quoteCurrency",
  tiebreaker: "id",
});

/** Columns of the history's union of feed rounds and overrides (history-query.ts). */
export const HISTORY_COLLECTION = defineCollection({
  fields: {
    source: { column: "source", type: "enum", values: ["feed", "override"], facet: true },
    effectiveAt: { column: "effectiveAt", type: "timestamp", sortable: true },
    updatedAt: { column: "updatedAt", type: "timestamp", sortable: true },
  },
  defaultSort: "-updatedAt",
  tiebreaker: "id",
  totalFromFacet: "source",
});
