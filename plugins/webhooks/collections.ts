// How endpoints and deliveries are listed (collection query: filters, sort, search, paging).
import { defineCollection } from "../../host/collections/index.ts";
import { DELIVERY_STATUSES } from "./tables.ts";

export const ENDPOINT_COLLECTION = defineCollection({
  fields: {
    url: { column: "url", type: "text", sortable: true },
    description: { column: "description", type: "text" },
    disabled: { column: "disabled", type: "boolean", facet: true },
    createdAt: { column: "createdAt", type: "timestamp", sortable: true },
  },
  search: ["url", "description"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
});

export const DELIVERY_COLLECTION = defineCollection({
  fields: {
    evtId: { column: "evtId", type: "text" },
    type: { column: "type", type: "text", sortable: true },
    lifecycleState: { column: "lifecycleState", type: "text" },
    attempt: { column: "attempt", type: "number", sortable: true },
    status: { column: "status", type: "enum", values: DELIVERY_STATUSES, facet: true },
    responseStatus: { column: "responseStatus", type: "number" },
    nextAttemptAt: { column: "nextAttemptAt", type: "timestamp", sortable: true },
    deliveredAt: { column: "deliveredAt", type: "timestamp", sortable: true },
    createdAt: { column: "createdAt", type: "timestamp", sortable: true },
    requestId: { column: "requestId", type: "text" },
    idempotencyKey: { column: "idempotencyKey", type: "text" },
    transactionHash: { column: "transactionHash", type: "text" },
  },
  defaultSort: "-createdAt",
  tiebreaker: "id",
});
