// The error codes of compliance templates, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  COMPLIANCE_TEMPLATE_NOT_FOUND: { id: "SVC-0320", status: 404, category: "client", retryable: false, message: "Compliance template not found.", why: "Neither the library nor your organisation has a compliance template with this id.", fix: "List the templates with GET /api/v2/settings/compliance-templates and use one of their ids." },
  COMPLIANCE_TEMPLATE_IMMUTABLE: { id: "SVC-0321", status: 409, category: "domain", retryable: false, message: "Library templates cannot be changed.", why: "Library templates (isSystem true) cannot be updated, published or deleted through the organisation API.", fix: "Create an organisation template with the same content and change that one." },
  COMPLIANCE_TEMPLATE_ALREADY_PUBLISHED: { id: "SVC-0322", status: 409, category: "domain", retryable: false, message: "The template is already published.", why: "Publishing a published template changes nothing and makes no new version.", fix: "Read the template; to change it, update it (it becomes a draft) and publish it again." },
  COMPLIANCE_MODULE_SET_INCOMPATIBLE: { id: "SVC-0323", status: 422, category: "domain", retryable: false, message: "Controls of another module set.", why: "A template's controls must all belong to its moduleSetVersion (fixed at creation); incompatibleTypeIds lists the others.", fix: "Replace the listed controls with their counterparts of the template's module set, or create a template of the other version." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
