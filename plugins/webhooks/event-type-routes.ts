// GET /api/v2/webhooks/event-types: the catalogue of every event type the composed plugins declare, with the JSON
// Schema of each payload (the same zod schema ctx.emit validates against); GET /api/v2/webhooks/asyncapi.json: the
// same types as an AsyncAPI 3.0.0 document.
import { createRoute, z } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { statesOf } from "../../host/events/lifecycle-rules.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import { lifecycleOf, webhookPayloadSchema, webhookSdkName } from "../../host/openapi/webhook-schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { buildAsyncApiDocument } from "./asyncapi.ts";
import { EventTypeSchema } from "./schemas.ts";

const listEventTypes = createRoute({
  method: "get",
  path: "/api/v2/webhooks/event-types",
  tags: ["webhooks"],
  summary: "The webhook event types an endpoint may subscribe to, with their payload JSON Schemas",
  middleware: [requirePermission("webhooks:manage")],
  responses: {
    200: jsonResponse(z.object({ data: z.array(EventTypeSchema), links: linksSelf }), "The catalogue, by type"),
    ...errorResponses,
  },
});

const readAsyncApi = createRoute({
  method: "get",
  path: "/api/v2/webhooks/asyncapi.json",
  tags: ["webhooks"],
  summary: "An AsyncAPI 3.0.0 document of every webhook event type (messages named by their SDK type names)",
  middleware: [requirePermission("webhooks:manage")],
  responses: {
    200: jsonResponse(
      z
        .object({ asyncapi: z.literal("3.0.0") })
        .passthrough()
        .openapi("AsyncApiDocument"),
      "The AsyncAPI document",
    ),
    ...errorResponses,
  },
});

export function eventTypeRoutes(app: App, ctx: PluginContext) {
  // Built once: the composed plugins do not change while the process runs.
  const catalogue = [...ctx.webhookEvents]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, event]) => ({
      type,
      description: event.description,
      version: 1,
      sdkName: webhookSdkName(type, event),
      lifecycle: lifecycleOf(event),
      lifecycleStates: statesOf(event),
      receiptRequired: event.receiptRequired ?? false,
      payloadSchema: webhookPayloadSchema(event) as Record<string, unknown>,
    }));
  app.openapi(listEventTypes, (c) => c.json(single(c, catalogue), 200));
  const asyncApi = buildAsyncApiDocument(ctx.webhookEvents) as { asyncapi: "3.0.0" };
  app.openapi(readAsyncApi, (c) => c.json(asyncApi, 200));
}
