// Descriptions completed from what the route declares.
import { describe, expect, it } from "vitest";
import type { DocumentOperation } from "./document-operations.ts";
import { withDescription } from "./operation-descriptions.ts";

const operation = (fields: Record<string, unknown>) =>
  ({ responses: { 200: { description: "ok" } }, ...fields }) as unknown as DocumentOperation;

describe("withDescription", () => {
  it("starts from the route's own words, else its summary as a sentence, and names the permission", () => {
    const own = operation({ summary: "Get a widget", description: "Widgets are round", "x-permission": "widget:read" });
    withDescription(own);
    expect(own.description).toBe("Widgets are round.\n\nPermission: `widget:read`.");
    const summaryOnly = operation({ summary: "Get a widget (raw units)", security: [] });
    withDescription(summaryOnly);
    expect(summaryOnly.description).toBe("Get a widget (raw units).\n\nPublic: no credentials needed.");
  });

  it("says how a collection pages, sorts, filters, searches and counts facets", () => {
    const list = operation({
      summary: "List widgets",
      parameters: [
        { name: "sort", in: "query", schema: { enum: ["name", "-name"] } },
        { name: "page[limit]", in: "query" },
        { name: "filter[q]", in: "query" },
        { name: "filter[colour]", in: "query" },
      ],
      responses: {
        200: {
          content: {
            "application/json": {
              schema: { properties: { meta: { properties: { facets: { properties: { colour: {} } } } } } },
            },
          },
        },
      },
    });
    withDescription(list);
    expect(list.description).toContain("sort by one of `name`");
    expect(list.description).toContain("`filter[<field>]` on `colour`");
    expect(list.description).toContain("search with `filter[q]`");
    expect(list.description).toContain("`meta.facets` counts the values of `colour`");
  });

  it("tells how a chain write answers", () => {
    const write = operation({
      summary: "Mint",
      responses: {
        202: { content: { "application/json": { schema: { $ref: "#/components/schemas/AcceptedMutation" } } } },
      },
    });
    withDescription(write);
    expect(write.description).toContain("202 Accepted");
    expect(write.description).toContain("Prefer: wait=N");
    expect(write.description).toContain("Idempotency-Key");
  });
});
