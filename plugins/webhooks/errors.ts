// The webhooks plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  WEBHOOK_ENDPOINT_NOT_FOUND: def("SVC-9700", 404, "client", false, "Webhook endpoint not found.", "Your organisation has no webhook endpoint with this id.", "List the endpoints with GET /api/v2/webhooks/endpoints and use one of their ids."),
  WEBHOOK_DELIVERY_NOT_FOUND: def("SVC-9701", 404, "client", false, "Webhook delivery not found.", "The endpoint has no delivery with this id.", "List the endpoint's deliveries with GET /api/v2/webhooks/endpoints/{id}/deliveries and use one of their ids."),
  WEBHOOK_URL_NOT_ALLOWED: def("SVC-9702", 422, "client", false, "This webhook URL is not allowed.", "Webhook URLs must use https to a public address, without credentials or a non-HTTP service port; loopback, private, link-local and other special-purpose addresses only in a range the platform lists in WEBHOOKS_PRIVATE_TARGET_RANGES, the cloud metadata address only when listed exactly. The message names the rule the URL broke.", "Give a public https URL, or ask the platform operator to list the receiver's range."),
  WEBHOOK_EVENT_TYPE_UNKNOWN: def("SVC-9703", 422, "client", false, "Unknown webhook event type.", "eventTypes names a type the platform does not emit.", "Choose types from GET /api/v2/webhooks/event-types."),
  WEBHOOK_RECEIPT_SIGNATURE_INVALID: def("SVC-9704", 401, "auth", false, "The receipt's signature does not verify.", "A receipt must carry Standard Webhooks headers (webhook-id, webhook-timestamp within five minutes, webhook-signature) signed with the secret of an endpoint that received the event.", "Sign the exact request body with the endpoint's secret (e.g. the standardwebhooks package's sign) and send it within five minutes."),
  WEBHOOK_EVENT_NOT_FOUND: def("SVC-9705", 404, "client", false, "Webhook event not found.", "Your organisation has no webhook event with this evt_id.", "Use the evt_id of a delivery (the webhook-id header, or GET /api/v2/webhooks/endpoints/{id}/deliveries)."),
} as const satisfies Record<string, ErrorDefinition>;
