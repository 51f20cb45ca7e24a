// How the organisation's transaction requests are listed: filters, sorts, facets and search of the list route.
import { defineCollection } from "../../host/collections/index.ts";
import { TRANSACTION_STATUSES } from "./schemas.ts";

const lowercase = (value: string) => value.toLowerCase();

export const TRANSACTION_REQUEST_COLLECTION = defineCollection({
  fields: {
    status: { column: "status", type: "enum", values: TRANSACTION_STATUSES, sortable: true, facet: true },
    kind: { column: "kind", type: "text", sortable: true, facet: true },
    chainId: { column: "chainId", type: "number" },
    // Stored lowercase: a checksummed address or hash still matches.
    fromAddress: { column: "fromAddress", type: "text", normalize: lowercase },
    transactionHash: { column: "transactionHash", type: "text", normalize: lowercase },
    createdAt: { column: "createdAt", type: "timestamp", sortable: true },
    updatedAt: { column: "updatedAt", type: "timestamp", sortable: true },
  },
  search: ["kind", "transactionHash"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
  // Its total and facets are kept while the table is unchanged (host/db/table-versions.ts).
  versionedBy: ["transaction_requests"],
});
