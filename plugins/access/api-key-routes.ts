// API keys over HTTP: create (shown once), list, revoke. Every member manages their own; owners and admins see and
// revoke the organisation's. A key never creates a key of more scope or a later expiry than its own.
import { createRoute } from "@hono/zod-openapi";
import { assertKeyWithinCaller } from "../../host/auth/key-limits.ts";
import { hasPermission } from "../../host/auth/permissions.ts";
import { assertPermission, requirePermission } from "../../host/auth/require-permission.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import { ApiError, badRequest } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { toApiKey } from "./api-key-record.ts";
import { API_KEY_COLUMNS, createApiKey, revokeApiKey } from "./api-key-store.ts";
import { API_KEY_COLLECTION } from "./collections.ts";
import { ApiKeyIdParams, ApiKeySchema, CreateApiKeyBodySchema, CreatedApiKeySchema, envelope } from "./schemas.ts";

const PATH = "/api/v2/api-keys";

const createKey = createRoute({
  method: "post",
  path: PATH,
  tags: ["organization"],
  summary: "Create an API key for yourself in the active organisation (the secret is shown once)",
  description:
    "The key carries your roles. Called with an API key: a read key cannot create keys (API_KEY_READ_ONLY), and a " +
    "key with an expiry creates only keys expiring no later (403 API_KEY_SCOPE_EXCEEDED).",
  middleware: [requirePermission("apiKey:manage")],
  request: { body: jsonBody(CreateApiKeyBodySchema) },
  responses: { 201: jsonResponse(envelope(CreatedApiKeySchema), "The key, with its secret in key"), ...errorResponses },
});

const listKeys = collectionRoute({
  path: PATH,
  tags: ["organization"],
  summary: "List API keys: your own, or the organisation's for owners and admins (never the secret)",
  permission: "apiKey:manage",
  collection: API_KEY_COLLECTION,
  item: ApiKeySchema,
  listed: "The keys, newest first; facet scope",
});

const revokeKey = createRoute({
  method: "delete",
  path: `${PATH}/{id}`,
  tags: ["organization"],
  summary: "Revoke an API key at once (your own; any of the organisation's as owner or admin)",
  middleware: [requirePermission("apiKey:manage")],
  request: { params: ApiKeyIdParams },
  responses: {
    200: jsonResponse(envelope(ApiKeySchema), "The revoked key (a repeat answers the same)"),
    ...errorResponses,
  },
});

export function apiKeyRoutes(app: App, ctx: PluginContext) {
  const db = ctx.db.platform;

  app.openapi(createKey, async (c) => {
    const principal = c.get("principal");
    const { name, scope, expiresAt } = c.req.valid("json");
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw badRequest("expiresAt must be in the future", [{ path: "expiresAt", message: "must be in the future" }]);
    }
    assertKeyWithinCaller(principal, { scope, expiresAt: expiresAt ?? null });
    const { key, ...record } = await createApiKey(db, {
      organizationId: principal.organizationId,
      userId: principal.userId,
      name,
      scope,
      ...(expiresAt ? { expiresAt } : {}),
    });
    return c.json(single(c, { ...toApiKey(record), key }), 201);
  });

  app.openapi(listKeys, async (c) => {
    const { organizationId, userId, roles } = c.get("principal");
    const visible = () => {
      const own = db.selectFrom("apiKeys").select(API_KEY_COLUMNS).where("organizationId", "=", organizationId);
      return hasPermission(roles, "apiKey:manage-others") ? own : own.where("userId", "=", userId);
    };
    return c.json(await collectionPage(c, API_KEY_COLLECTION, visible, (rows) => rows.map(toApiKey)), 200);
  });

  app.openapi(revokeKey, async (c) => {
    const { organizationId, userId, roles } = c.get("principal");
    const { id } = c.req.valid("param");
    const target = await db
      .selectFrom("apiKeys")
      .select("userId")
      .where("id", "=", id)
      .where("organizationId", "=", organizationId) // another organisation's key is not found
      .executeTakeFirst();
    if (!target) throw new ApiError("API_KEY_NOT_FOUND");
    if (target.userId !== userId) assertPermission(roles, "apiKey:manage-others");
    const revoked = await revokeApiKey(db, id, organizationId);
    if (!revoked) throw new ApiError("API_KEY_NOT_FOUND");
    return c.json(single(c, toApiKey(revoked)), 200);
  });
}
