// How an identity's claim events are listed: the spec's filters (ranges on time and block), sorts and facets.
import { defineCollection } from "../../host/collections/index.ts";

export const CLAIM_EVENT_NAMES = ["ClaimAdded", "ClaimChanged", "ClaimRemoved", "ClaimRevoked"] as const;

const lowercase = (value: string) => value.toLowerCase();

/** Columns of the claim event query (claim-events-routes.ts). */
export const CLAIM_EVENT_COLLECTION = defineCollection({
  fields: {
    eventName: { column: "eventName", type: "enum", values: CLAIM_EVENT_NAMES, facet: true },
    topic: { column: "topic", type: "bigint", facet: true },
    // Stored lowercase: a checksummed address or mixed-case hash still matches.
    claimId: { column: "claimId", type: "text", normalize: lowercase },
    issuerAddress: { column: "issuer", type: "text", normalize: lowercase },
    senderAddress: { column: "sender", type: "text", normalize: lowercase },
    blockTimestamp: { column: "blockTimestamp", type: "timestamp", sortable: true },
    blockNumber: { column: "blockNumber", type: "bigint", sortable: true },
  },
  defaultSort: "-blockTimestamp",
  tiebreaker: "ordinal",
});
