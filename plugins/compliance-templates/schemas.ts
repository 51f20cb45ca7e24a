// Compliance template bodies and the template resource. Each module is `{typeId, params?}` with params checked against
// the control catalogue; on create, controls of another module set are refused at their field path.
import { z } from "@hono/zod-openapi";
import {
  CONTROL_TYPE_IDS,
  CONTROL_TYPES,
  CURRENT_MODULE_SET_VERSION,
  controlType,
  MODULE_SET_VERSIONS,
} from "../../domain/compliance/control-types.ts";
import { linksSelf } from "../../host/http/schemas.ts";

/** Compliance.MAX_MODULES_PER_TOKEN: a token takes at most this many modules. */
export const MAX_MODULES = 32;
/** The `filter[jurisdiction]` value that selects global templates; not a jurisdiction itself. */
export const GLOBAL = "GLOBAL";

const moduleVariants = CONTROL_TYPES.map((type) =>
  z
    .object({
      typeId: z.literal(type.id),
      params: type.params.optional(),
    })
    .strict()
    .openapi({
      description: `${type.category} control, moduleSetVersion ${type.moduleSetVersion}; without params, token creation supplies them`,
    }),
);
export const TemplateModuleSchema = z
  .discriminatedUnion("typeId", moduleVariants as unknown as [(typeof moduleVariants)[number]])
  .openapi("ComplianceTemplateModule");
export type TemplateModule = z.output<typeof TemplateModuleSchema>;

const ControlTypeIdSchema = z.enum(CONTROL_TYPE_IDS);
const ModuleSetVersionSchema = z
  .literal(MODULE_SET_VERSIONS)
  .openapi({ type: "integer", enum: [...MODULE_SET_VERSIONS], description: "1 legacy, 2 current" });

const JurisdictionSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/, "a code of letters, digits and '-' (e.g. DE, EU), at most 32 characters")
  .refine((v) => v.toUpperCase() !== GLOBAL, `${GLOBAL} is the filter for global templates; send [] instead`)
  .openapi({ example: "DE" });

function flagRepeats(values: readonly string[], path: (index: number) => (string | number)[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value)) ctx.addIssue({ code: "custom", path: path(index), message: `${value} is listed twice` });
    seen.add(value);
  });
}

interface Content {
  jurisdictions: string[];
  modules: { typeId: string }[];
  requiredControls: string[];
}

/** Rules of any template's content: no repeats; each required control is one of the modules. */
function checkContent(body: Content, ctx: z.RefinementCtx, moduleSetVersion?: number) {
  flagRepeats(
    body.jurisdictions.map((j) => j.toUpperCase()),
    (i) => ["jurisdictions", i],
    ctx,
  );
  const typeIds = body.modules.map((m) => m.typeId);
  flagRepeats(typeIds, (i) => ["modules", i, "typeId"], ctx);
  flagRepeats(body.requiredControls, (i) => ["requiredControls", i], ctx);
  const foreign = (id: string) => {
    const version = controlType(id)?.moduleSetVersion;
    return moduleSetVersion !== undefined && version !== undefined && version !== moduleSetVersion;
  };
  const mixed = (id: string) =>
    `${id} belongs to moduleSetVersion ${controlType(id)?.moduleSetVersion}; this template's is ${moduleSetVersion}`;
  typeIds.forEach((id, index) => {
    if (foreign(id)) ctx.addIssue({ code: "custom", path: ["modules", index, "typeId"], message: mixed(id) });
  });
  body.requiredControls.forEach((id, index) => {
    const path = ["requiredControls", index];
    if (foreign(id)) ctx.addIssue({ code: "custom", path, message: mixed(id) });
    else if (!typeIds.includes(id)) ctx.addIssue({ code: "custom", path, message: `${id} is not one of the modules` });
  });
}

const contentFields = {
  name: z.string().trim().min(1).max(128),
  description: z.string().max(2000).default(""),
  jurisdictions: z
    .array(JurisdictionSchema)
    .max(64)
    .default([])
    .openapi({ description: "Empty for a global template; stored uppercase" }),
  modules: z.array(TemplateModuleSchema).max(MAX_MODULES).default([]),
  requiredControls: z
    .array(ControlTypeIdSchema)
    .max(MAX_MODULES)
    .default([])
    .openapi({ description: "Control type ids, each one of the modules', that a token must keep" }),
};

export const CreateTemplateBodySchema = z
  .object({
    ...contentFields,
    moduleSetVersion: ModuleSetVersionSchema.optional().openapi({ description: "Default 2 (current)" }),
    isLegacy: z
      .boolean()
      .optional()
      .openapi({ deprecated: true, description: "Deprecated: send moduleSetVersion (true means 1, false 2)" }),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (
      body.isLegacy !== undefined &&
      body.moduleSetVersion !== undefined &&
      body.isLegacy !== (body.moduleSetVersion === 1)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["isLegacy"],
        message: "contradicts moduleSetVersion; send moduleSetVersion only",
      });
    }
    checkContent(body, ctx, moduleSetVersionOf(body));
  })
  .openapi("CreateComplianceTemplateRequest");

export const UpdateTemplateBodySchema = z
  .object({
    ...contentFields,
    moduleSetVersion: ModuleSetVersionSchema.optional().openapi({
      description: "Fixed at creation: when sent, it must be the template's",
    }),
  })
  .strict()
  .superRefine((body, ctx) => checkContent(body, ctx))
  .openapi("UpdateComplianceTemplateRequest");

export type CreateTemplateBody = z.output<typeof CreateTemplateBodySchema>;
export type UpdateTemplateBody = z.output<typeof UpdateTemplateBodySchema>;

/** The module set a create body asks for: moduleSetVersion, else the deprecated flag, else the current one. */
export function moduleSetVersionOf(body: { moduleSetVersion?: number; isLegacy?: boolean }): number {
  return body.moduleSetVersion ?? (body.isLegacy ? 1 : CURRENT_MODULE_SET_VERSION);
}

export const ComplianceTemplateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    jurisdictions: z.array(z.string()),
    isSystem: z.boolean().openapi({ description: "true for library templates (immutable)" }),
    isDraft: z.boolean().openapi({ description: "false once published; token creation uses published templates" }),
    moduleSetVersion: z.number().int(),
    organizationId: z.string().openapi({ description: '"system" for library templates' }),
    version: z.number().int().openapi({ description: "1 at creation, one more per accepted update or publish" }),
    modules: z.array(TemplateModuleSchema),
    requiredControls: z.array(z.string()),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("ComplianceTemplate");

export const TemplateEnvelopeSchema = z.object({ data: ComplianceTemplateSchema, links: linksSelf });
export const TemplateIdParams = z.object({ id: z.string().min(1).max(64) });
