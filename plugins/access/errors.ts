// The error codes of API keys and the organisation's members, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  API_KEY_NOT_FOUND: { id: "SVC-12141", status: 404, category: "client", retryable: false, message: "API key not found.", why: "No API key with this id is in your organisation.", fix: "List the keys with GET /api/v2/api-keys and use one of their ids." },
  ORGANIZATION_MEMBER_NOT_FOUND: { id: "SVC-12142", status: 404, category: "client", retryable: false, message: "Member not found.", why: "The user holds no role in your organisation.", fix: "List the members with GET /api/v2/organization/members and use one of their userIds." },
  ORGANIZATION_LAST_OWNER: { id: "SVC-12143", status: 409, category: "domain", retryable: false, message: "The organisation's last owner keeps the owner role.", why: "Removing it would leave the organisation without an owner.", fix: "Grant the owner role to another member first, then change this member's roles." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
