// The error codes of the contract directory, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  ADDON_FACTORY_NOT_FOUND: def("SVC-0227", 404, "client", false, "Addon factory not registered.", "No addon factory is registered at this address.", "List addon factories and use a registered address."),
} as const satisfies Record<string, ErrorDefinition>;
