// Declaration checks of a collection whose facet counts the elements of an array column.
import { describe, expect, it } from "vitest";
import { arrayMembership } from "./array-membership.ts";
import { defineCollection } from "./spec.ts";

const tags = {
  column: "tags",
  type: "text",
  facet: true,
  facetElements: true,
  condition: arrayMembership("tags"),
} as const;

describe("defineCollection: array element facets", () => {
  it("marks the field's facet as counting elements", () => {
    const spec = defineCollection({
      fields: { name: { column: "name", type: "text", sortable: true, facet: true }, tags },
      defaultSort: "name",
      tiebreaker: "id",
      totalFromFacet: "name",
    });
    expect(spec.fields.get("tags")?.facetElements).toBe(true);
    expect(spec.fields.get("name")?.facetElements).toBe(false);
  });

  it("refuses element counts without a facet, and as the source of the total", () => {
    expect(() =>
      defineCollection({
        fields: { name: { column: "name", type: "text", sortable: true }, tags: { ...tags, facet: false } },
        defaultSort: "name",
        tiebreaker: "id",
      }),
    ).toThrow(/no facet/);
    expect(() =>
      defineCollection({
        fields: { name: { column: "name", type: "text", sortable: true }, tags },
        defaultSort: "name",
        tiebreaker: "id",
        totalFromFacet: "tags",
      }),
    ).toThrow(/array elements/);
  });
});
