// The monitoring plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  MONITORING_REQUEST_LOG_NOT_FOUND: def("SVC-17001", 404, "client", false, "Request log not found.", "Your organisation has no recorded request with this id (it may also have been pruned).", "List the request logs with GET /api/v2/monitoring/api/request-logs and use one of their ids."),
} as const satisfies Record<string, ErrorDefinition>;
