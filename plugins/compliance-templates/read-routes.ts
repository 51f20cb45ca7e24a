// Reading compliance templates: the list (library first, then the organisation's; collection query) and one template.
import { createRoute } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import { errorResponses } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { COMPLIANCE_TEMPLATE_COLLECTION } from "./collections.ts";
import { ComplianceTemplateSchema, TemplateEnvelopeSchema, TemplateIdParams } from "./schemas.ts";
import { templateEnvelope, toComplianceTemplate } from "./serialize.ts";
import { findTemplate, visibleTemplates } from "./store.ts";

const listTemplates = collectionRoute({
  path: "/api/v2/settings/compliance-templates",
  tags: ["settings"],
  summary: "List the library's and the organisation's compliance templates (library first, then by name)",
  permission: "complianceTemplate:read",
  collection: COMPLIANCE_TEMPLATE_COLLECTION,
  item: ComplianceTemplateSchema,
  listed: "The templates; facets isSystem, isDraft, moduleSetVersion",
});

const getTemplate = createRoute({
  method: "get",
  path: "/api/v2/settings/compliance-templates/{id}",
  tags: ["settings"],
  summary: "Read a compliance template",
  middleware: [requirePermission("complianceTemplate:read")],
  request: { params: TemplateIdParams },
  responses: {
    200: { description: "The template", content: { "application/json": { schema: TemplateEnvelopeSchema } } },
    ...errorResponses,
  },
});

export function readRoutes(app: App, ctx: PluginContext) {
  app.openapi(listTemplates, async (c) => {
    const visible = () => visibleTemplates(ctx.db.platform, c.get("principal").organizationId);
    const page = await collectionPage(c, COMPLIANCE_TEMPLATE_COLLECTION, visible, (rows) =>
      rows.map(toComplianceTemplate),
    );
    return c.json(page, 200);
  });

  app.openapi(getTemplate, async (c) => {
    const row = await findTemplate(ctx.db.platform, c.get("principal").organizationId, c.req.valid("param").id);
    return c.json(templateEnvelope(row), 200);
  });
}
