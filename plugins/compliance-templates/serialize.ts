// A compliance_templates row as the API shows it.
import { linkPath } from "../../host/http/envelopes.ts";
import type { TemplateModule } from "./schemas.ts";
import type { ComplianceTemplateRow } from "./tables.ts";

/** What organizationId and createdBy read for library templates, which belong to no organisation. */
export const LIBRARY_OWNER = "system";

export function templatePath(id: string): string {
  return `/api/v2/settings/compliance-templates/${encodeURIComponent(id)}`;
}

export function toComplianceTemplate(row: ComplianceTemplateRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    jurisdictions: row.jurisdictions,
    isSystem: row.isSystem,
    isDraft: row.isDraft,
    moduleSetVersion: row.moduleSetVersion,
    organizationId: row.organizationId ?? LIBRARY_OWNER,
    version: row.version,
    modules: row.modules as TemplateModule[], // validated against the catalogue when written
    requiredControls: row.requiredControls,
    createdBy: row.createdBy,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** The single-resource envelope of a template; `links.self` is the template's own path whatever the route. */
export function templateEnvelope(row: ComplianceTemplateRow) {
  return { data: toComplianceTemplate(row), links: { self: linkPath(templatePath(row.id)) } };
}
