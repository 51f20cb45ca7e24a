// The error codes of compliance templates, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  COMPLIANCE_TEMPLATE_NOT_FOUND: def("SVC-0320", 404, "client", false, "Compliance template not found.", "Neither the library nor your organisation has a compliance template with this id.", "List the templates with GET /api/v2/settings/compliance-templates and use one of their ids."),
  COMPLIANCE_TEMPLATE_IMMUTABLE: def("SVC-0321", 409, "domain", false, "Library templates cannot be changed.", "Library templates (isSystem true) cannot be updated, published or deleted through the organisation API.", "Create an organisation template with the same content and change that one."),
  COMPLIANCE_TEMPLATE_ALREADY_PUBLISHED: def("SVC-0322", 409, "domain", false, "The template is already published.", "Publishing a published template changes nothing and makes no new version.", "Read the template; to change it, update it (it becomes a draft) and publish it again."),
  COMPLIANCE_MODULE_SET_INCOMPATIBLE: def("SVC-0323", 422, "domain", false, "Controls of another module set.", "A template's controls must all belong to its moduleSetVersion (fixed at creation); incompatibleTypeIds lists the others.", "Replace the listed controls with their counterparts of the template's module set, or create a template of the other version."),
} as const satisfies Record<string, ErrorDefinition>;
