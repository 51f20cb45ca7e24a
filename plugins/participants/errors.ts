// The error codes of participants, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  PARTICIPANT_NOT_FOUND: def("SVC-0524", 404, "client", false, "Participant not found.", "The participant id does not resolve in the active organisation.", "Use a participant id of your organisation."),
} as const satisfies Record<string, ErrorDefinition>;
