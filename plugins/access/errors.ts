// The error codes of API keys and the organisation's members, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  API_KEY_NOT_FOUND: def("SVC-12141", 404, "client", false, "API key not found.", "No API key with this id is in your organisation.", "List the keys with GET /api/v2/api-keys and use one of their ids."),
  ORGANIZATION_MEMBER_NOT_FOUND: def("SVC-12142", 404, "client", false, "Member not found.", "The user holds no role in your organisation.", "List the members with GET /api/v2/organization/members and use one of their userIds."),
  ORGANIZATION_LAST_OWNER: def("SVC-12143", 409, "domain", false, "The organisation's last owner keeps the owner role.", "Removing it would leave the organisation without an owner.", "Grant the owner role to another member first, then change this member's roles."),
} as const satisfies Record<string, ErrorDefinition>;
