// Webhook endpoints: create (the secret is shown once), list, read, update, delete, rotate the secret (the old one
// signs alongside for 24 hours). Organisation-scoped: another organisation's endpoint is not found.
import { createRoute } from "@hono/zod-openapi";
import { v7 as uuidv7 } from "uuid";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { ENDPOINT_COLLECTION } from "./collections.ts";
import { assertSubscribable, findEndpoint, toEndpoint } from "./endpoints.ts";
import {
  CreateEndpointBodySchema,
  EndpointIdParams,
  EndpointSchema,
  EndpointWithSecretSchema,
  envelope,
  UpdateEndpointBodySchema,
} from "./schemas.ts";
import type { WebhookSettings } from "./settings.ts";
import { newSecret, ROTATION_OVERLAP_MS, sealSecret } from "./signing.ts";
import { webhooksDb } from "./tables.ts";

export const PATH = "/api/v2/webhooks/endpoints";
const tags = ["webhooks"];
const middleware = [requirePermission("webhooks:manage")];

const createEndpoint = createRoute({
  method: "post",
  path: PATH,
  tags,
  summary: "Subscribe a URL to event types (the signing secret is shown once)",
  description:
    "https on a public address, or http(s) to a range WEBHOOKS_PRIVATE_TARGET_RANGES lists (422 " +
    "WEBHOOK_URL_NOT_ALLOWED otherwise, naming the rule: scheme, credentials, port, the range or the metadata address); " +
    "event types from GET /api/v2/webhooks/event-types (422 WEBHOOK_EVENT_TYPE_UNKNOWN). `filters` narrows them " +
    "to resources (`{tokenAddress: [...]}`: only events of those tokens); `receiptRequired` (default false) makes " +
    "final deliveries of types that ask for receipts wait for a counter-signed one.",
  middleware,
  request: { body: jsonBody(CreateEndpointBodySchema) },
  responses: {
    201: jsonResponse(envelope(EndpointWithSecretSchema), "The endpoint, with its secret"),
    ...errorResponses,
  },
});

const listEndpoints = collectionRoute({
  path: PATH,
  tags,
  summary: "List the organisation's webhook endpoints",
  permission: "webhooks:manage",
  collection: ENDPOINT_COLLECTION,
  item: EndpointSchema,
  listed: "The endpoints, newest first; facet disabled",
});

const byId = { params: EndpointIdParams };

const getEndpoint = createRoute({
  method: "get",
  path: `${PATH}/{id}`,
  tags,
  summary: "Read a webhook endpoint",
  middleware,
  request: byId,
  responses: { 200: jsonResponse(envelope(EndpointSchema), "The endpoint"), ...errorResponses },
});

const updateEndpoint = createRoute({
  method: "patch",
  path: `${PATH}/{id}`,
  tags,
  summary: "Change a webhook endpoint's url, eventTypes, description, filters, receiptRequired or disabled",
  description:
    "Only the fields given change; `filters` replaces the endpoint's filters whole (`{}` removes them). Events " +
    "already fanned out keep their deliveries.",
  middleware,
  request: { ...byId, body: jsonBody(UpdateEndpointBodySchema) },
  responses: { 200: jsonResponse(envelope(EndpointSchema), "The endpoint"), ...errorResponses },
});

const deleteEndpoint = createRoute({
  method: "delete",
  path: `${PATH}/{id}`,
  tags,
  summary: "Delete a webhook endpoint and its deliveries",
  middleware,
  request: byId,
  responses: { 200: jsonResponse(envelope(EndpointSchema), "The deleted endpoint"), ...errorResponses },
});

const rotateSecret = createRoute({
  method: "post",
  path: `${PATH}/{id}/secret/rotate`,
  tags,
  summary: "Rotate the signing secret (the previous one keeps signing alongside for 24 hours)",
  description: "Until then each delivery carries two `v1,` signatures in webhook-signature, one per secret.",
  middleware,
  request: byId,
  responses: {
    200: jsonResponse(envelope(EndpointWithSecretSchema), "The endpoint, with its new secret"),
    ...errorResponses,
  },
});

export function endpointRoutes(app: App, ctx: PluginContext<"secrets", WebhookSettings>) {
  const db = webhooksDb(ctx.db.platform);
  const masterKey = ctx.secrets.masterKey;

  app.openapi(createEndpoint, async (c) => {
    const { organizationId } = c.get("principal");
    const body = c.req.valid("json");
    await assertSubscribable(ctx, body);
    const secret = newSecret();
    const row = await db
      .insertInto("webhookEndpoints")
      .values({
        id: uuidv7(),
        organizationId,
        url: body.url,
        eventTypes: JSON.stringify([...new Set(body.eventTypes)]),
        description: body.description ?? null,
        filters: JSON.stringify(body.filters ?? {}),
        receiptRequired: body.receiptRequired ?? false,
        disabledReason: null,
        secretSealed: sealSecret(secret, masterKey),
        previousSecretSealed: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return c.json(single(c, { ...toEndpoint(row), secret }), 201);
  });

  app.openapi(listEndpoints, async (c) => {
    const own = () =>
      db.selectFrom("webhookEndpoints").selectAll().where("organizationId", "=", c.get("principal").organizationId);
    return c.json(await collectionPage(c, ENDPOINT_COLLECTION, own, (rows) => rows.map(toEndpoint)), 200);
  });

  app.openapi(getEndpoint, async (c) => {
    const row = await findEndpoint(db, c.get("principal").organizationId, c.req.valid("param").id);
    return c.json(single(c, toEndpoint(row)), 200);
  });

  app.openapi(updateEndpoint, async (c) => {
    const { organizationId } = c.get("principal");
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    await findEndpoint(db, organizationId, id);
    await assertSubscribable(ctx, body);
    const row = await db
      .updateTable("webhookEndpoints")
      .set({
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.eventTypes ? { eventTypes: JSON.stringify([...new Set(body.eventTypes)]) } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.disabled !== undefined ? { disabled: body.disabled, disabledReason: null } : {}),
        ...(body.filters !== undefined ? { filters: JSON.stringify(body.filters) } : {}),
        ...(body.receiptRequired !== undefined ? { receiptRequired: body.receiptRequired } : {}),
        updatedAt: new Date(),
      })
      .where("id", "=", id)
      .where("organizationId", "=", organizationId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return c.json(single(c, toEndpoint(row)), 200);
  });

  app.openapi(deleteEndpoint, async (c) => {
    const { organizationId } = c.get("principal");
    const row = await findEndpoint(db, organizationId, c.req.valid("param").id);
    await db.deleteFrom("webhookEndpoints").where("id", "=", row.id).execute();
    return c.json(single(c, toEndpoint(row)), 200);
  });

  app.openapi(rotateSecret, async (c) => {
    const { organizationId } = c.get("principal");
    const current = await findEndpoint(db, organizationId, c.req.valid("param").id);
    const secret = newSecret();
    const row = await db
      .updateTable("webhookEndpoints")
      .set({
        secretSealed: sealSecret(secret, masterKey),
        previousSecretSealed: current.secretSealed,
        previousSecretExpiresAt: new Date(Date.now() + ROTATION_OVERLAP_MS),
        updatedAt: new Date(),
      })
      .where("id", "=", current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return c.json(single(c, { ...toEndpoint(row), secret }), 200);
  });
}
