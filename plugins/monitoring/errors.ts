// The monitoring plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  MONITORING_REQUEST_LOG_NOT_FOUND: { id: "SVC-17001", status: 404, category: "client", retryable: false, message: "Request log not found.", why: "Your organisation has no recorded request with this id (it may also have been pruned).", fix: "List the request logs with GET /api/v2/monitoring/api/request-logs and use one of their ids." },
  METRICS_TOKEN_REQUIRED: { id: "SVC-17002", status: 403, category: "permission", retryable: false, message: "GET /metrics is closed: METRICS_TOKEN is not set.", why: "With an external database or chain (DATABASE_URL, RPC_URL or CHAINS set) the metrics are served only with METRICS_TOKEN, and none is configured.", fix: "Set METRICS_TOKEN (16 characters or more) and scrape with Authorization: Bearer <METRICS_TOKEN>." },
  METRICS_TOKEN_INVALID: { id: "SVC-17003", status: 401, category: "auth", retryable: false, message: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.", why: "The request carried no bearer token, or not the configured METRICS_TOKEN.", fix: "Send Authorization: Bearer <METRICS_TOKEN>." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
