// Changing the organisation's compliance templates: create (a draft), update (a new draft version), publish, delete.
// Library templates are refused as immutable; another organisation's are not found.
import { createRoute, z } from "@hono/zod-openapi";
import { v7 as uuidv7 } from "uuid";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { badRequest } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { linkPath } from "../../host/http/envelopes.ts";
import { ErrorFormASchema, errorResponses, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { assertModuleSet } from "./module-set.ts";
import {
  CreateTemplateBodySchema,
  moduleSetVersionOf,
  TemplateEnvelopeSchema,
  TemplateIdParams,
  UpdateTemplateBodySchema,
} from "./schemas.ts";
import { templateEnvelope, templatePath } from "./serialize.ts";
import { deleteTemplate, findOwnTemplate, insertTemplate, publishTemplate, updateTemplate } from "./store.ts";

const PATH = "/api/v2/settings/compliance-templates";
const manage = requirePermission("complianceTemplate:manage");
const template = (description: string) => ({
  description,
  content: { "application/json": { schema: TemplateEnvelopeSchema } },
});
const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});
const incompatible = {
  422: {
    description: "COMPLIANCE_MODULE_SET_INCOMPATIBLE: controls of another module set (incompatibleTypeIds)",
    content: { "application/json": { schema: ErrorFormASchema } },
  },
};

const createTemplate = createRoute({
  method: "post",
  path: PATH,
  tags: ["settings"],
  summary: "Create a compliance template (a draft)",
  middleware: [manage],
  request: { body: jsonBody(CreateTemplateBodySchema) },
  responses: {
    201: { ...template("The draft template; Location is its path"), headers: z.object({ Location: z.string() }) },
    ...errorResponses,
  },
});

const updateTemplateRoute = createRoute({
  method: "put",
  path: `${PATH}/{id}`,
  tags: ["settings"],
  summary: "Replace a template's content (a new version, a draft until published again)",
  middleware: [manage],
  request: { params: TemplateIdParams, body: jsonBody(UpdateTemplateBodySchema) },
  responses: { 200: template("The updated template"), ...errorResponses, ...incompatible },
});

const publishTemplateRoute = createRoute({
  method: "put",
  path: `${PATH}/{id}/publish`,
  tags: ["settings"],
  summary: "Publish a draft template: token creation may use it",
  middleware: [manage],
  request: { params: TemplateIdParams },
  responses: { 200: template("The published template"), ...errorResponses, ...incompatible },
});

const deleteTemplateRoute = createRoute({
  method: "delete",
  path: `${PATH}/{id}`,
  tags: ["settings"],
  summary: "Delete an organisation template",
  middleware: [manage],
  request: { params: TemplateIdParams },
  responses: {
    200: {
      description: "Deleted",
      content: {
        "application/json": {
          schema: z.object({ data: z.object({ id: z.string(), success: z.boolean() }), links: linksSelf }),
        },
      },
    },
    ...errorResponses,
  },
});

export function writeRoutes(app: App, ctx: PluginContext) {
  const db = ctx.db.platform;

  app.openapi(createTemplate, async (c) => {
    const body = c.req.valid("json");
    const { organizationId, userId } = c.get("principal");
    const row = await insertTemplate(
      db,
      { id: uuidv7(), organizationId, createdBy: userId, moduleSetVersion: moduleSetVersionOf(body) },
      body,
    );
    const envelope = templateEnvelope(row);
    c.header("Location", envelope.links.self);
    return c.json(envelope, 201);
  });

  app.openapi(updateTemplateRoute, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const { organizationId } = c.get("principal");
    const current = await findOwnTemplate(db, organizationId, id);
    if (body.moduleSetVersion !== undefined && body.moduleSetVersion !== current.moduleSetVersion) {
      const message = `moduleSetVersion is fixed at creation (${current.moduleSetVersion})`;
      throw badRequest(message, [{ path: "moduleSetVersion", message }]);
    }
    assertModuleSet(current.moduleSetVersion, body);
    return c.json(templateEnvelope(await updateTemplate(db, organizationId, id, body)), 200);
  });

  app.openapi(publishTemplateRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { organizationId } = c.get("principal");
    const current = await findOwnTemplate(db, organizationId, id);
    assertModuleSet(current.moduleSetVersion, current);
    return c.json(templateEnvelope(await publishTemplate(db, organizationId, id)), 200);
  });

  app.openapi(deleteTemplateRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { organizationId } = c.get("principal");
    await findOwnTemplate(db, organizationId, id);
    await deleteTemplate(db, organizationId, id);
    return c.json({ data: { id, success: true }, links: { self: linkPath(templatePath(id)) } }, 200);
  });
}
