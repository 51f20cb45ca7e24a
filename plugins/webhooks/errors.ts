// The webhooks plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  WEBHOOK_ENDPOINT_NOT_FOUND: def("SVC-9700", 404, "client", false, "Webhook endpoint not found.", "Your organisation has no webhook endpoint with this id.", "List the endpoints with GET /api/v2/webhooks/endpoints and use one of their ids."),
  WEBHOOK_DELIVERY_NOT_FOUND: def("SVC-9701", 404, "client", false, "Webhook delivery not found.", "The endpoint has no delivery with this id.", "List the endpoint's deliveries with GET /api/v2/webhooks/endpoints/{id}/deliveries and use one of their ids."),
  WEBHOOK_URL_NOT_ALLOWED: def("SVC-9702", 422, "client", false, "This webhook URL is not allowed.", "Webhook URLs must use https and must not point at a loopback, private or link-local address (unless the platform sets WEBHOOKS_ALLOW_PRIVATE_TARGETS=true).", "Give a public https URL."),
  WEBHOOK_EVENT_TYPE_UNKNOWN: def("SVC-9703", 422, "client", false, "Unknown webhook event type.", "eventTypes names a type the platform does not emit.", "Choose types from GET /api/v2/webhooks/event-types."),
} as const satisfies Record<string, ErrorDefinition>;
