// The operator recovery errors (spec: Errors → Operator recovery errors).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  OFFCHAIN_USER_PERMISSION_REQUIRED: { id: "SVC-9600", status: 403, category: "permission", retryable: false, message: "The platform operator's permission is required.", why: "The caller is not a platform operator (no organisation role grants it).", fix: "Use a key of a platform operator (npm run cli -- platform-operator grant)." },
  WORKFLOW_ENGINE_ADMIN_UNREACHABLE: { id: "SVC-9601", status: 503, category: "dependency", retryable: true, message: "The workflow engine's admin API is unreachable.", why: "Its health endpoint could not be resolved or reached.", fix: "Check the engine's configuration, then run the doctor again." },
  WORKFLOW_ENGINE_DEPLOYMENT_NOT_FOUND: { id: "SVC-9602", status: 404, category: "client", retryable: false, message: "No deployment for this service URL.", why: "No registered deployment matches serviceUrl.", fix: "Run the doctor and use a registered serviceUrl." },
  WORKFLOW_ENGINE_WORKFLOW_RETRY_BLOCKED: { id: "SVC-9603", status: 409, category: "operational", retryable: false, message: "The workflow cannot be recovered now.", why: "An invocation is active, the workflow already succeeded, or the purge query failed.", fix: "Read reason and invocationIds, then act on them." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
