// How the system's entities (contract identities) are listed: the spec's filters, sorts, facets and search.
import { defineCollection } from "../../host/collections/index.ts";

export const ENTITY_STATUSES = ["registered", "pending"] as const;

/** Columns of the entity query (entities-query.ts). */
export const ENTITY_COLLECTION = defineCollection({
  fields: {
    entityType: { column: "entityType", type: "text", sortable: true, facet: true },
    status: { column: "status", type: "enum", values: ENTITY_STATUSES, facet: true },
    lastActivity: { column: "lastActivity", type: "timestamp", sortable: true, filter: false },
    identityAddress: { column: "id", type: "text", sortable: true, filter: false },
    contractName: { column: "contractName", type: "text", filter: false },
  },
  search: ["identityAddress", "contractName"],
  defaultSort: "lastActivity",
  tiebreaker: "id",
});
