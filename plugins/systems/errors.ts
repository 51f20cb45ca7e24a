// The error codes of an organisation's system and its operation, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  SYSTEM_NOT_CREATED: def("SVC-0011", 403, "domain", false, "The platform is not initialised.", "No system has been created for this organisation yet.", "Create the organisation's system first."),
  ORGANIZATION_DEPLOYMENT_NOT_FOUND: def("SVC-9620", 404, "client", false, "Deployment not found.", "No deployment with this id belongs to your active organisation.", "Use the deploymentId POST /api/v2/organizations answered, with that organisation active (x-organization-id)."),
  ORGANIZATION_DEPLOYMENT_STEP_FAILED: def("SVC-9621", 502, "dependency", true, "A step of the organisation's deployment failed.", "The chain, custody or index refused or did not answer the step named in nodeId (see reason).", "Resolve the reason, then repeat POST /api/v2/organizations with the same Idempotency-Key to resume."),
} as const satisfies Record<string, ErrorDefinition>;
