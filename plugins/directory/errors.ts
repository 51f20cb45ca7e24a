// The error codes of the contract directory, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  ADDON_FACTORY_NOT_FOUND: { id: "SVC-0227", status: 404, category: "client", retryable: false, message: "Addon factory not registered.", why: "No addon factory is registered at this address.", fix: "List addon factories and use a registered address." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
