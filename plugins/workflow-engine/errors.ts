// The operator recovery errors (spec: Errors → Operator recovery errors).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  OFFCHAIN_USER_PERMISSION_REQUIRED: def("SVC-9600", 403, "permission", false, "The platform operator's permission is required.", "The caller is not a platform operator (no organisation role grants it).", "Use a key of a platform operator (npm run cli -- platform-operator grant)."),
  WORKFLOW_ENGINE_ADMIN_UNREACHABLE: def("SVC-9601", 503, "dependency", true, "The workflow engine's admin API is unreachable.", "Its health endpoint could not be resolved or reached.", "Check the engine's configuration, then run the doctor again."),
  WORKFLOW_ENGINE_DEPLOYMENT_NOT_FOUND: def("SVC-9602", 404, "client", false, "No deployment for this service URL.", "No registered deployment matches serviceUrl.", "Run the doctor and use a registered serviceUrl."),
  WORKFLOW_ENGINE_WORKFLOW_RETRY_BLOCKED: def("SVC-9603", 409, "operational", false, "The workflow cannot be recovered now.", "An invocation is active, the workflow already succeeded, or the purge query failed.", "Read reason and invocationIds, then act on them."),
} as const satisfies Record<string, ErrorDefinition>;
