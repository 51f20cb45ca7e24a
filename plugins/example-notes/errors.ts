// The example plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  EXAMPLE_NOTE_NOT_FOUND: { id: "SVC-9901", status: 404, category: "client", retryable: false, message: "Note not found.", why: "Your organisation has no note with this id.", fix: "List the notes with GET /api/v2/example/notes and use one of their ids." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
