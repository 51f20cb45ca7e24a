// The documented query schema: shows the collection's parameters, yet lets every input reach the engine.
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { collectionQueryParameters } from "./openapi.ts";
import { defineCollection } from "./spec.ts";

const spec = defineCollection({
  fields: {
    name: { column: "name", type: "text", sortable: true },
    status: { column: "status", type: "enum", values: ["A", "B"] },
    createdAt: { column: "created_at", type: "timestamp", sortable: true },
  },
  search: ["name"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
});

describe("collectionQueryParameters", () => {
  const app = new OpenAPIHono({
    defaultHook: (result, c) => (result.success ? undefined : c.json({ rejected: true }, 400)),
  });
  app.openapi(
    createRoute({
      method: "get",
      path: "/items",
      request: { query: collectionQueryParameters(spec) },
      responses: { 200: { description: "ok" } },
    }),
    (c) => c.json(c.req.valid("query"), 200),
  );
  app.doc31("/doc", { openapi: "3.1.0", info: { title: "t", version: "1" } });

  it("validates nothing, so the engine answers with the spec's codes", async () => {
    const res = await app.request("/items?sort=zz&sort=-name&page[limit]=abc&filter[nope][eq]=1&sortBy=x");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ sort: ["zz", "-name"], "page[limit]": "abc", "filter[nope][eq]": "1" });
  });

  it("documents sort, paging, search and each filter", async () => {
    const doc = (await (await app.request("/doc")).json()) as {
      paths: Record<string, { get: { parameters: { name: string; schema: Record<string, unknown> }[] } }>;
    };
    const parameters = Object.fromEntries(doc.paths["/items"].get.parameters.map((p) => [p.name, p.schema]));
    expect(Object.keys(parameters)).toEqual([
      "sort",
      "page[offset]",
      "page[limit]",
      "filter[q]",
      "filter[name]",
      "filter[status]",
      "filter[createdAt]",
    ]);
    expect(parameters.sort).toMatchObject({
      enum: ["name", "-name", "createdAt", "-createdAt"],
      default: "-createdAt",
    });
    expect(parameters["page[limit]"]).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 50 });
    expect(parameters["page[offset]"]).toMatchObject({ type: "integer", minimum: 0, maximum: 10000, default: 0 });
    expect(parameters["filter[status]"]).toMatchObject({ type: "string", enum: ["A", "B"] });
  });
});
