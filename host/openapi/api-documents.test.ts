// Splitting the registry into the v2 and v1 documents: each holds its own paths, components and error envelope.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../http/env.ts";
import { errorResponses } from "../http/schemas.ts";
import { buildApiDocuments } from "./api-documents.ts";
import { registerErrorSchemas } from "./error-schemas.ts";
import { registerSecuritySchemes } from "./security-schemes.ts";

function appWithRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  registerSecuritySchemes(app.openAPIRegistry);
  registerErrorSchemas(app.openAPIRegistry);
  const Widget = z.object({ id: z.string() }).openapi("Widget");
  const LegacyWidget = z.object({ name: z.string() }).openapi("LegacyWidget");
  const ok = (schema: z.ZodTypeAny) => ({ description: "ok", content: { "application/json": { schema } } });
  app.openapi(
    createRoute({ method: "get", path: "/api/v2/widgets/{id}", responses: { 200: ok(Widget), ...errorResponses } }),
    (c) => c.json({ id: "1" }, 200),
  );
  app.openapi(createRoute({ method: "get", path: "/api/widget", responses: { 200: ok(LegacyWidget) } }), (c) =>
    c.json({ name: "w" }, 200),
  );
  app.openapi(createRoute({ method: "get", path: "/internal", responses: { 200: ok(z.object({})) } }), (c) =>
    c.json({}, 200),
  );
  return app;
}

describe("buildApiDocuments", () => {
  const { v2, v1 } = buildApiDocuments(appWithRoutes());

  it("puts /api/v2 paths in v2 and the other /api paths in v1, nothing outside /api", () => {
    expect(Object.keys(v2.paths ?? {})).toEqual(["/api/v2/widgets/{id}"]);
    expect(Object.keys(v1.paths ?? {})).toEqual(["/api/widget"]);
    expect(v2.openapi).toBe("3.1.0");
    expect(v1.openapi).toBe("3.1.0");
  });

  it("keeps only the components each document references, and both security schemes", () => {
    expect(Object.keys(v2.components?.schemas ?? {}).sort()).toEqual(["Error", "Widget"]);
    expect(Object.keys(v1.components?.schemas ?? {}).sort()).toEqual(["LegacyError", "LegacyWidget"]);
    for (const doc of [v2, v1]) {
      expect(doc.components?.securitySchemes).toEqual({
        ApiKey: expect.objectContaining({ type: "apiKey", in: "header", name: "X-Api-Key" }),
        SessionCookie: expect.objectContaining({ type: "apiKey", in: "cookie", name: "svc_session" }),
      });
      expect(doc.security).toEqual([{ ApiKey: [] }, { SessionCookie: [] }]);
    }
  });

  it("gives legacy operations without error responses a default in the Form B envelope", () => {
    const responses = v1.paths?.["/api/widget"]?.get?.responses ?? {};
    expect(responses.default).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/LegacyError" } } },
    });
    const legacyError = v1.components?.schemas?.LegacyError as { properties: { error: { required: string[] } } };
    expect(legacyError.properties.error.required).toEqual([
      "id",
      "category",
      "status",
      "retryable",
      "message",
      "why",
      "fix",
      "details",
    ]);
  });

  it("leaves v2 operations' declared Form A error responses as they are", () => {
    const responses = v2.paths?.["/api/v2/widgets/{id}"]?.get?.responses ?? {};
    expect(responses.default).toBeUndefined();
    expect(responses["404"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
  });
});
