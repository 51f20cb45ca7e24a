// The error codes of an organisation's system and its operation, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  SYSTEM_NOT_CREATED: def("SVC-0011", 403, "domain", false, "The platform is not initialised.", "No system has been created for this organisation yet.", "Create the organisation's system first."),
} as const satisfies Record<string, ErrorDefinition>;
