// Pruning a split document's components to what its paths use.
import { describe, expect, it } from "vitest";
import { pruneComponents } from "./prune-components.ts";

const components = {
  schemas: {
    Token: { type: "object", properties: { owner: { $ref: "#/components/schemas/Account" } } },
    Account: { type: "object" },
    Unused: { type: "object", properties: { self: { $ref: "#/components/schemas/Unused" } } },
    "a/b": { type: "string" },
    Cycle: { type: "object", properties: { next: { $ref: "#/components/schemas/Cycle" } } },
  },
  parameters: { Unused: { name: "x", in: "query" } },
  securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-Api-Key" } },
};

describe("pruneComponents", () => {
  it("keeps what the paths reference, transitively, and drops the rest", () => {
    const paths = {
      "/t": {
        get: {
          responses: {
            200: { content: { "application/json": { schema: { items: [{ $ref: "#/components/schemas/Token" }] } } } },
            400: { content: { "application/json": { schema: { $ref: "#/components/schemas/a~1b" } } } },
            500: { content: { "application/json": { schema: { $ref: "#/components/schemas/Cycle" } } } },
          },
        },
      },
    };
    expect(pruneComponents(components, paths, ["securitySchemes"])).toEqual({
      schemas: {
        Token: components.schemas.Token,
        Account: components.schemas.Account,
        "a/b": components.schemas["a/b"],
        Cycle: components.schemas.Cycle,
      },
      securitySchemes: components.securitySchemes,
    });
  });

  it("ignores external and missing references and leaves out empty component types", () => {
    const paths = { "/x": { $ref: "other.yaml#/components/schemas/Token", y: { $ref: "#/components/schemas/Gone" } } };
    expect(pruneComponents(components, paths)).toEqual({});
  });
});
