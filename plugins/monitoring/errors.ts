// The monitoring plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  MONITORING_REQUEST_LOG_NOT_FOUND: def("SVC-17001", 404, "client", false, "Request log not found.", "Your organisation has no recorded request with this id (it may also have been pruned).", "List the request logs with GET /api/v2/monitoring/api/request-logs and use one of their ids."),
  METRICS_TOKEN_REQUIRED: def("SVC-17002", 403, "permission", false, "GET /metrics is closed: METRICS_TOKEN is not set.", "With an external database or chain (DATABASE_URL, RPC_URL or CHAINS set) the metrics are served only with METRICS_TOKEN, and none is configured.", "Set METRICS_TOKEN (16 characters or more) and scrape with Authorization: Bearer <METRICS_TOKEN>."),
  METRICS_TOKEN_INVALID: def("SVC-17003", 401, "auth", false, "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.", "The request carried no bearer token, or not the configured METRICS_TOKEN.", "Send Authorization: Bearer <METRICS_TOKEN>."),
} as const satisfies Record<string, ErrorDefinition>;
