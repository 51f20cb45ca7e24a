// The list routes declare exactly the spec's filters, sorts, facets and defaults.
import { describe, expect, it } from "vitest";
import { parseCollectionQuery } from "../../host/collections/index.ts";
import { CLAIM_EVENT_COLLECTION } from "./claim-event-collection.ts";
import { ENTITY_COLLECTION } from "./entity-collection.ts";

describe("the identity layer's collections", () => {
  it("entities: filters entityType and status, q over identity address and name, sorts lastActivity first", () => {
    expect(ENTITY_COLLECTION.filterableFields).toEqual(["entityType", "status"]);
    expect(ENTITY_COLLECTION.sortableFields).toEqual(["entityType", "lastActivity", "identityAddress"]);
    expect(ENTITY_COLLECTION.facetFields).toEqual(["entityType", "status"]);
    expect(ENTITY_COLLECTION.search.map((f) => f.name)).toEqual(["identityAddress", "contractName"]);
    expect(ENTITY_COLLECTION.defaultSort).toEqual({ field: "lastActivity", direction: "asc" });
    expect(ENTITY_COLLECTION.fields.get("status")?.values).toEqual(["registered", "pending"]);
  });

  it("claim events: the spec's filters (block ranges included), newest first, facets topic and eventName", () => {
    expect(CLAIM_EVENT_COLLECTION.filterableFields).toEqual([
      "eventName",
      "topic",
      "claimId",
      "issuerAddress",
      "senderAddress",
      "blockTimestamp",
      "blockNumber",
    ]);
    expect(CLAIM_EVENT_COLLECTION.sortableFields).toEqual(["blockTimestamp", "blockNumber"]);
    expect(CLAIM_EVENT_COLLECTION.facetFields).toEqual(["eventName", "topic"]);
    expect(CLAIM_EVENT_COLLECTION.defaultSort).toEqual({ field: "blockTimestamp", direction: "desc" });
    const query = parseCollectionQuery(
      new URLSearchParams("filter[blockNumber][between]=10,20&filter[issuerAddress]=0xABC"),
      CLAIM_EVENT_COLLECTION,
    );
    expect(query.filters).toEqual([
      { field: "blockNumber", operator: "between", values: ["10", "20"] },
      { field: "issuerAddress", operator: "eq", value: "0xabc" },
    ]);
  });
});
