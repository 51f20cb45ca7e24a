// The organisation's view of platform.compliance_templates: its own templates and the library's, and the writes that
// only ever touch its own (a library template is refused as immutable before any write).
import { sql } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { type ComplianceTemplateRow, templatesDb } from "./tables.ts";

export interface TemplateContent {
  name: string;
  description: string;
  jurisdictions: string[];
  modules: { typeId: string; params?: unknown }[];
  requiredControls: string[];
}

/** Templates the organisation sees: the library's and its own (another organisation's do not exist for it). */
export function visibleTemplates(db: PlatformDb, organizationId: string) {
  return templatesDb(db)
    .selectFrom("complianceTemplates")
    .selectAll()
    .where((eb) => eb.or([eb("organizationId", "=", organizationId), eb("isSystem", "=", true)]));
}

export async function findTemplate(db: PlatformDb, organizationId: string, id: string): Promise<ComplianceTemplateRow> {
  const row = await visibleTemplates(db, organizationId).where("id", "=", id).executeTakeFirst();
  if (!row) throw new ApiError("COMPLIANCE_TEMPLATE_NOT_FOUND", { details: { templateId: id } });
  return row;
}

/** A template of the organisation that it may change, or the error saying why not. */
export async function findOwnTemplate(db: PlatformDb, organizationId: string, id: string) {
  const row = await findTemplate(db, organizationId, id);
  if (row.isSystem) throw new ApiError("COMPLIANCE_TEMPLATE_IMMUTABLE", { details: { templateId: id } });
  return row;
}

const stored = (content: TemplateContent) => ({
  name: content.name,
  description: content.description,
  jurisdictions: content.jurisdictions.map((j) => j.toUpperCase()),
  modules: JSON.stringify(content.modules),
  requiredControls: content.requiredControls,
});

export function insertTemplate(
  db: PlatformDb,
  row: { id: string; organizationId: string; createdBy: string; moduleSetVersion: number },
  content: TemplateContent,
): Promise<ComplianceTemplateRow> {
  return templatesDb(db)
    .insertInto("complianceTemplates")
    .values({ ...row, ...stored(content) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces the content: a new version, and a draft again (publish it to make the change available). */
export async function updateTemplate(
  db: PlatformDb,
  organizationId: string,
  id: string,
  content: TemplateContent,
): Promise<ComplianceTemplateRow> {
  const row = await templatesDb(db)
    .updateTable("complianceTemplates")
    .set({ ...stored(content), isDraft: true, version: sql`version + 1`, updatedAt: sql`now()` })
    .where("id", "=", id)
    .where("organizationId", "=", organizationId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new ApiError("COMPLIANCE_TEMPLATE_NOT_FOUND", { details: { templateId: id } });
  return row;
}

/** draft → published, once: a concurrent or repeated publish finds no draft and is refused. */
export async function publishTemplate(db: PlatformDb, organizationId: string, id: string) {
  const row = await templatesDb(db)
    .updateTable("complianceTemplates")
    .set({ isDraft: false, version: sql`version + 1`, updatedAt: sql`now()` })
    .where("id", "=", id)
    .where("organizationId", "=", organizationId)
    .where("isDraft", "=", true)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new ApiError("COMPLIANCE_TEMPLATE_ALREADY_PUBLISHED", { details: { templateId: id } });
  return row;
}

export async function deleteTemplate(db: PlatformDb, organizationId: string, id: string): Promise<void> {
  const deleted = await templatesDb(db)
    .deleteFrom("complianceTemplates")
    .where("id", "=", id)
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  if (deleted.numDeletedRows === 0n)
    throw new ApiError("COMPLIANCE_TEMPLATE_NOT_FOUND", { details: { templateId: id } });
}
