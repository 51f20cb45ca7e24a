// Token templates: the library's (in code) and the organisation's own (platform.token_templates).
import { v7 as uuidv7 } from "uuid";
import type { FeatureId } from "../../domain/features/feature-params.ts";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { tokensDb } from "./tables.ts";
import { findTemplate, LIBRARY_TEMPLATES, type TokenTemplate } from "./templates.ts";

type Row = Awaited<ReturnType<typeof orgRows>>[number];

function orgRows(db: PlatformDb, organizationId: string) {
  return tokensDb(db).selectFrom("tokenTemplates").selectAll().where("organizationId", "=", organizationId).execute();
}

function toTemplate(row: Row): TokenTemplate {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isSystem: false,
    requiredFeatures: row.requiredFeatures as FeatureId[],
    allowedFeatures: row.allowedFeatures as FeatureId[],
    defaults: row.defaults as TokenTemplate["defaults"],
    complianceTemplateId: row.complianceTemplateId,
    organizationId: row.organizationId,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** Library templates first (in their order), then the organisation's by name. */
export async function listTokenTemplates(db: PlatformDb, organizationId: string): Promise<TokenTemplate[]> {
  const own = (await orgRows(db, organizationId)).map(toTemplate).sort((a, b) => a.name.localeCompare(b.name));
  return [...LIBRARY_TEMPLATES, ...own];
}

/** The library or organisation template with this id, or TOKEN_TEMPLATE_NOT_FOUND. */
export async function resolveTokenTemplate(db: PlatformDb, organizationId: string, id: string) {
  const library = findTemplate(id);
  if (library) return library;
  const row = await tokensDb(db)
    .selectFrom("tokenTemplates")
    .selectAll()
    .where("id", "=", id)
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  if (!row) throw new ApiError("TOKEN_TEMPLATE_NOT_FOUND", { details: { templateId: id } });
  return toTemplate(row);
}

export async function insertTokenTemplate(
  db: PlatformDb,
  input: Omit<TokenTemplate, "id" | "isSystem" | "createdAt"> & { organizationId: string; createdBy: string },
): Promise<TokenTemplate> {
  const row = await tokensDb(db)
    .insertInto("tokenTemplates")
    .values({
      id: uuidv7(),
      organizationId: input.organizationId,
      name: input.name,
      description: input.description,
      requiredFeatures: input.requiredFeatures,
      allowedFeatures: input.allowedFeatures,
      defaults: JSON.stringify(input.defaults) as never,
      complianceTemplateId: input.complianceTemplateId ?? null,
      createdBy: input.createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTemplate(row);
}

export async function deleteTokenTemplate(db: PlatformDb, organizationId: string, id: string) {
  if (findTemplate(id)) {
    throw new ApiError("FORBIDDEN", {
      message: "Library token templates cannot be deleted",
      details: { templateId: id },
    });
  }
  const deleted = await tokensDb(db)
    .deleteFrom("tokenTemplates")
    .where("id", "=", id)
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  if (!deleted.numDeletedRows) throw new ApiError("TOKEN_TEMPLATE_NOT_FOUND", { details: { templateId: id } });
}
