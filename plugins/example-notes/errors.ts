// The example plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  EXAMPLE_NOTE_NOT_FOUND: def("SVC-9901", 404, "client", false, "Note not found.", "Your organisation has no note with this id.", "List the notes with GET /api/v2/example/notes and use one of their ids."),
} as const satisfies Record<string, ErrorDefinition>;
