// The webhooks plugin's error codes (code → SVC id, status, category, retryable, message, why, fix).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  WEBHOOK_ENDPOINT_NOT_FOUND: { id: "SVC-9700", status: 404, category: "client", retryable: false, message: "Webhook endpoint not found.", why: "Your organisation has no webhook endpoint with this id.", fix: "List the endpoints with GET /api/v2/webhooks/endpoints and use one of their ids." },
  WEBHOOK_DELIVERY_NOT_FOUND: { id: "SVC-9701", status: 404, category: "client", retryable: false, message: "Webhook delivery not found.", why: "The endpoint has no delivery with this id.", fix: "List the endpoint's deliveries with GET /api/v2/webhooks/endpoints/{id}/deliveries and use one of their ids." },
  WEBHOOK_URL_NOT_ALLOWED: { id: "SVC-9702", status: 422, category: "client", retryable: false, message: "This webhook URL is not allowed.", why: "Webhook URLs must use https to a public address, without credentials or a non-HTTP service port; loopback, private, link-local and other special-purpose addresses only in a range the platform lists in WEBHOOKS_PRIVATE_TARGET_RANGES, the cloud metadata address only when listed exactly. The message names the rule the URL broke.", fix: "Give a public https URL, or ask the platform operator to list the receiver's range." },
  WEBHOOK_EVENT_TYPE_UNKNOWN: { id: "SVC-9703", status: 422, category: "client", retryable: false, message: "Unknown webhook event type.", why: "eventTypes names a type the platform does not emit.", fix: "Choose types from GET /api/v2/webhooks/event-types." },
  WEBHOOK_RECEIPT_SIGNATURE_INVALID: { id: "SVC-9704", status: 401, category: "auth", retryable: false, message: "The receipt's signature does not verify.", why: "A receipt must carry Standard Webhooks headers (webhook-id, webhook-timestamp within five minutes, webhook-signature) signed with the secret of an endpoint that received the event.", fix: "Sign the exact request body with the endpoint's secret (e.g. the standardwebhooks package's sign) and send it within five minutes." },
  WEBHOOK_EVENT_NOT_FOUND: { id: "SVC-9705", status: 404, category: "client", retryable: false, message: "Webhook event not found.", why: "Your organisation has no webhook event with this evt_id.", fix: "Use the evt_id of a delivery (the webhook-id header, or GET /api/v2/webhooks/endpoints/{id}/deliveries)." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
