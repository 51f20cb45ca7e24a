// Token templates: the library's and the organisation's own (create, read, delete; library ones are immutable).

import { createRoute, z } from "@hono/zod-openapi";
import { type FeatureId, featureConfigSchema } from "../../domain/features/feature-params.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { badRequest } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { collection, linkPath, single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonResponse, linksSelf, singleResponses } from "../../host/http/schemas.ts";
import { zodIssues } from "../../host/http/validation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { enforceRules } from "./feature-configs.ts";
import { CreateTokenTemplateBodySchema, TokenTemplateSchema } from "./schemas.ts";
import {
  deleteTokenTemplate,
  insertTokenTemplate,
  listTokenTemplates,
  resolveTokenTemplate,
} from "./template-store.ts";
import type { TokenTemplate } from "./templates.ts";

const PageQuery = z.object({
  "page[offset]": z.coerce.number().int().min(0).max(10_000).default(0),
  "page[limit]": z.coerce.number().int().min(1).max(200).default(50),
});
const IdParam = z.object({ id: z.string().min(1).max(64) });

const toBody = (t: TokenTemplate) => ({ ...t, availableForCreation: true });

const listTemplates = createRoute({
  method: "get",
  path: "/api/v2/token-templates",
  tags: ["token"],
  summary: "List the token templates (library first, then the organisation's by name)",
  middleware: [requirePermission("token:read")],
  request: { query: PageQuery },
  responses: {
    200: jsonResponse(z.object({ data: z.array(TokenTemplateSchema) }).passthrough(), "Templates"),
    ...errorResponses,
  },
});

const getTemplate = createRoute({
  method: "get",
  path: "/api/v2/token-templates/{id}",
  tags: ["token"],
  summary: "Read a token template",
  middleware: [requirePermission("token:read")],
  request: { params: IdParam },
  responses: singleResponses(TokenTemplateSchema, "The template"),
});

const createTemplate = createRoute({
  method: "post",
  path: "/api/v2/token-templates",
  tags: ["token"],
  summary: "Create an organisation token template",
  middleware: [requirePermission("tokenTemplate:manage")],
  request: { body: { required: true, content: { "application/json": { schema: CreateTokenTemplateBodySchema } } } },
  responses: {
    201: jsonResponse(z.object({ data: TokenTemplateSchema, links: linksSelf }), "Created"),
    ...errorResponses,
  },
});

const deleteTemplate = createRoute({
  method: "delete",
  path: "/api/v2/token-templates/{id}",
  tags: ["token"],
  summary: "Delete an organisation token template",
  middleware: [requirePermission("tokenTemplate:manage")],
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** A template's own consistency: required ⊆ allowed, rules hold, defaults name known parameters. */
function checkTemplate(body: z.infer<typeof CreateTokenTemplateBodySchema>) {
  const issues: { path: string; message: string }[] = [];
  body.requiredFeatures.forEach((f, i) => {
    if (!body.allowedFeatures.includes(f))
      issues.push({ path: `requiredFeatures.${i}`, message: "must also be allowed" });
  });
  for (const [f, config] of Object.entries(body.defaults?.featureConfigs ?? {})) {
    if (!body.allowedFeatures.includes(f as FeatureId)) {
      issues.push({ path: `defaults.featureConfigs.${f}`, message: "feature not allowed by the template" });
      continue;
    }
    const parsed = featureConfigSchema(f as FeatureId)
      .partial()
      .safeParse(config ?? {});
    if (!parsed.success) issues.push(...zodIssues(parsed.error, ["defaults", "featureConfigs", f]));
  }
  if (issues.length) {
    throw badRequest(`Invalid template at ${issues[0].path}: ${issues[0].message}`, issues);
  }
  enforceRules(body.requiredFeatures);
}

export function templateRoutes(app: App, ctx: PluginContext) {
  app.openapi(listTemplates, async (c) => {
    const { "page[offset]": offset, "page[limit]": limit } = c.req.valid("query");
    const all = await listTokenTemplates(ctx.db.platform, c.get("principal").organizationId);
    return c.json(collection(c, all.slice(offset, offset + limit).map(toBody), all.length, { offset, limit }), 200);
  });

  app.openapi(getTemplate, async (c) => {
    const { id } = c.req.valid("param");
    const template = await resolveTokenTemplate(ctx.db.platform, c.get("principal").organizationId, id);
    return c.json(single(c, toBody(template)), 200);
  });

  app.openapi(createTemplate, async (c) => {
    const body = c.req.valid("json");
    checkTemplate(body);
    const { organizationId, userId } = c.get("principal");
    const template = await insertTokenTemplate(ctx.db.platform, {
      organizationId,
      createdBy: userId,
      name: body.name,
      description: body.description ?? "",
      requiredFeatures: body.requiredFeatures,
      allowedFeatures: body.allowedFeatures,
      defaults: { decimals: body.defaults?.decimals ?? 18, featureConfigs: body.defaults?.featureConfigs ?? {} },
      complianceTemplateId: body.complianceTemplateId ?? null,
    });
    const self = linkPath(`/api/v2/token-templates/${template.id}`);
    return c.json({ data: toBody(template), links: { self } }, 201);
  });

  app.openapi(deleteTemplate, async (c) => {
    const { id } = c.req.valid("param");
    await deleteTokenTemplate(ctx.db.platform, c.get("principal").organizationId, id);
    return c.body(null, 204);
  });
}
