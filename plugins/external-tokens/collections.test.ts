// The list declares exactly the spec's sort and filter fields and facets, and shapes a row as the spec's item.
import { describe, expect, it } from "vitest";
import { parseCollectionQuery } from "../../host/collections/index.ts";
import { EXTERNAL_TOKEN_COLLECTION, toExternalToken } from "./collections.ts";

const refusal = (query: string) => {
  try {
    parseCollectionQuery(new URLSearchParams(query), EXTERNAL_TOKEN_COLLECTION);
    return undefined;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe("the external token collection", () => {
  it("sorts and filters on name, symbol, type and externalRegisteredAt only; facets type and paused", () => {
    expect(EXTERNAL_TOKEN_COLLECTION.filterableFields).toEqual(["name", "symbol", "type", "externalRegisteredAt"]);
    expect(EXTERNAL_TOKEN_COLLECTION.sortableFields).toEqual(["name", "symbol", "type", "externalRegisteredAt"]);
    expect(EXTERNAL_TOKEN_COLLECTION.facetFields).toEqual(["type", "paused"]);
    expect(EXTERNAL_TOKEN_COLLECTION.search.map((f) => f.name)).toEqual(["name", "symbol", "type"]);
    expect(EXTERNAL_TOKEN_COLLECTION.defaultSort).toEqual({ field: "externalRegisteredAt", direction: "desc" });
    expect(refusal("filter[paused]=true")).toBe("COLLECTION_FILTER_FIELD_UNKNOWN");
    expect(refusal("filter[decimals]=6")).toBe("COLLECTION_FILTER_FIELD_UNKNOWN");
    expect(refusal("sort=totalSupply")).toBeDefined();
    expect(refusal("sort=-externalRegisteredAt&filter[type]=bond&filter[q]=eur")).toBeUndefined();
  });

  it("shapes a row: supply with decimals applied and raw, interfaces, registrar", () => {
    const item = toExternalToken({
      chainId: 31337,
      registry: "0x1111111111111111111111111111111111111111",
      token: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
      system: "0x2222222222222222222222222222222222222222",
      tokenType: "equity",
      name: "Regulated",
      symbol: "REG",
      decimals: 18,
      totalSupply: 1_250_000_000_000_000_000n,
      paused: true,
      detectedInterfaces: ["ERC20", "ERC3643"],
      registeredBy: "0x3333333333333333333333333333333333333333",
      registeredAt: 1_700_000_000n,
      registeredInTransaction: "0x44",
      ordinal: "1",
      registeredTime: new Date(1_700_000_000_000),
    });
    expect(item).toEqual({
      id: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      name: "Regulated",
      symbol: "REG",
      decimals: 18,
      totalSupply: "1.25",
      totalSupplyExact: "1250000000000000000",
      type: "equity",
      pausable: { paused: true },
      externalRegisteredAt: "2023-11-14T22:13:20.000Z",
      externalRegisteredBy: { id: "0x3333333333333333333333333333333333333333" },
      externalDetectedInterfaces: ["ERC20", "ERC3643"],
      implementsERC3643: true,
      implementsSMART: false,
    });
  });
});
