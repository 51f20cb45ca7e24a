// Splitting the registry into the v2 and v1 documents: each holds its own paths, components and error envelope.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../http/env.ts";
import { errorResponses } from "../http/schemas.ts";
import type { WebhookEventType } from "../plugin.ts";
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

  it("refers v2 operations' generic Form A error responses to the shared response of their status", () => {
    const responses = v2.paths?.["/api/v2/widgets/{id}"]?.get?.responses ?? {};
    expect(responses.default).toBeUndefined();
    expect(responses["404"]).toEqual({ $ref: "#/components/responses/NotFound" });
    expect(v2.components?.responses?.NotFound).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
  });
});

describe("the v2 document's webhooks section", () => {
  const events = new Map<string, WebhookEventType>([
    [
      "widget.spun.final",
      {
        description: "A widget spun.",
        payload: z.object({ turns: z.number().int() }).strict().meta({ title: "WidgetSpunV1" }),
        receiptRequired: true,
      },
    ],
    [
      "widget.dropped.provisional",
      { description: "A widget fell.", payload: z.object({ height: z.string() }), lifecycle: "provisional" },
    ],
  ]);
  const { v2, v1 } = buildApiDocuments(appWithRoutes(), events);
  const schemas = (v2.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;

  it("has one POST per event type, with the Standard Webhooks headers and the envelope as body", () => {
    expect(Object.keys(v2.webhooks ?? {})).toEqual(["widget.dropped.provisional", "widget.spun.final"]);
    const post = (v2.webhooks as Record<string, { post: Record<string, unknown> }>)["widget.spun.final"].post;
    expect((post.parameters as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`)).toEqual([
      "header:webhook-id",
      "header:webhook-timestamp",
      "header:webhook-signature",
    ]);
    expect(post.requestBody).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/WidgetSpunV1" } } },
    });
    expect(post).toMatchObject({ "x-lifecycle": "final", "x-receipt-required": true, security: [] });
    expect(v1.webhooks).toBeUndefined();
  });

  it("names the envelope and payload schemas by SDK name: the payload's title, else PascalCase of the type + V1", () => {
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(["WidgetSpunV1", "WidgetSpunV1Payload", "WidgetDroppedProvisionalV1Payload"]),
    );
    expect(schemas.WidgetSpunV1).toMatchObject({
      properties: {
        type: { const: "widget.spun.final" },
        payload: { $ref: "#/components/schemas/WidgetSpunV1Payload" },
      },
      required: ["evt_id", "type", "version", "lifecycle_state", "related", "payload"],
      additionalProperties: false,
    });
    expect(schemas.WidgetDroppedProvisionalV1).toMatchObject({
      properties: { lifecycle_state: { enum: ["provisional", "final", "retracted", "recalled"] } },
    });
    expect(schemas.WidgetSpunV1).toMatchObject({ properties: { lifecycle_state: { enum: ["final", "recalled"] } } });
    expect(schemas.WidgetDroppedProvisionalV1Payload).toMatchObject({ additionalProperties: false });
    expect(schemas.WidgetSpunV1Payload.$schema).toBeUndefined();
  });

  it("refuses an event type whose SDK name is a route's component name", () => {
    const clash = new Map<string, WebhookEventType>([
      ["widget.made", { description: "x", payload: z.object({}).meta({ title: "Widget" }) }],
    ]);
    expect(() => buildApiDocuments(appWithRoutes(), clash)).toThrow(/"Widget"/);
  });
});
