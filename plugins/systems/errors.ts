// The error codes of an organisation's system and its operation, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  ORGANIZATION_DEPLOYMENT_NOT_FOUND: { id: "SVC-9620", status: 404, category: "client", retryable: false, message: "Deployment not found.", why: "No deployment with this id belongs to your active organisation.", fix: "Use the deploymentId POST /api/v2/organizations answered, with that organisation active (x-organization-id)." },
  ORGANIZATION_DEPLOYMENT_STEP_FAILED: { id: "SVC-9621", status: 502, category: "dependency", retryable: true, message: "A step of the organisation's deployment failed.", why: "The chain, custody or index refused or did not answer the step named in nodeId (see reason).", fix: "Resolve the reason, then repeat POST /api/v2/organizations with the same Idempotency-Key to resume." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
