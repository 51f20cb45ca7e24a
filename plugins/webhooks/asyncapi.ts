// The AsyncAPI 3.0.0 document of every declared event type: the subscriber's endpoint is the channel the platform
// sends to, one message per type named by its SDK name, its payload the delivery envelope (the same schemas as the
// OpenAPI document's `webhooks` section, host/openapi/webhook-schemas.ts).
import { statesOf } from "../../host/events/lifecycle-rules.ts";
import {
  type JsonSchema,
  lifecycleOf,
  WEBHOOK_HEADERS,
  WEBHOOK_RECEIPTS_PATH,
  type WebhookEvents,
  webhookDescription,
  webhookEnvelopeSchema,
  webhookEventList,
  webhookPayloadSchema,
} from "../../host/openapi/webhook-schemas.ts";

const CHANNEL = "subscriberEndpoint";

const HEADERS: JsonSchema = {
  type: "object",
  properties: Object.fromEntries(
    WEBHOOK_HEADERS.map(({ name, description, schema }) => [name, { ...schema, description }]),
  ),
  required: WEBHOOK_HEADERS.map(({ name }) => name),
};

export function buildAsyncApiDocument(events: WebhookEvents): JsonSchema {
  const list = webhookEventList(events);
  const schemas: Record<string, JsonSchema> = {};
  const messages: Record<string, JsonSchema> = {};
  const operations: Record<string, JsonSchema> = {};
  for (const { type, event, name } of list) {
    const payloadName = `${name}Payload`;
    schemas[payloadName] = { ...webhookPayloadSchema(event), title: payloadName };
    schemas[name] = webhookEnvelopeSchema(type, event, name, { $ref: `#/components/schemas/${payloadName}` });
    messages[name] = {
      name,
      title: type,
      summary: event.description,
      description: webhookDescription(type, event),
      contentType: "application/json",
      headers: HEADERS,
      payload: { $ref: `#/components/schemas/${name}` },
      "x-lifecycle": lifecycleOf(event),
      "x-lifecycle-states": statesOf(event),
      "x-receipt-required": event.receiptRequired ?? false,
    };
    operations[`send${name}`] = {
      action: "send",
      title: `Deliver ${type}`,
      summary: event.description,
      channel: { $ref: `#/channels/${CHANNEL}` },
      messages: [{ $ref: `#/channels/${CHANNEL}/messages/${name}` }],
      bindings: { http: { method: "POST" } },
    };
  }
  return {
    asyncapi: "3.0.0",
    info: {
      title: "Asset Platform webhooks",
      version: "1.0.0",
      description:
        "The events the platform POSTs to a webhook endpoint (POST /api/v2/webhooks/endpoints), each signed with " +
        "Standard Webhooks headers. Verify the signature, a timestamp at most five minutes old and `webhook-id` " +
        "(= `evt_id`) before processing. Answer 2xx within 15 s; anything else is delivered again with backoff. " +
        "Each fact is told through its lifecycle (`x-lifecycle-states`): `pending` (a platform write broadcast, not " +
        "mined), `provisional` (mined, inside the reorg depth), `final` (past it), `retracted` (a reorg inside the " +
        "depth removed it), `recalled` (a reorg deeper than the depth replaced the block it was final in); each state " +
        "once per endpoint, in that order. To an endpoint with `receiptRequired`, the `final` delivery of a type " +
        "marked `x-receipt-required` is sent again until the subscriber counter-signs a receipt: POST " +
        `${WEBHOOK_RECEIPTS_PATH} \`{evtId, receivedAt}\` signed with the endpoint's secret in the same headers.`,
    },
    defaultContentType: "application/json",
    channels: {
      [CHANNEL]: {
        // The URL each subscriber registers: no fixed address.
        address: null,
        title: "A subscriber's webhook endpoint",
        description: "The URL of a webhook endpoint; every delivery is an HTTP POST of one event's envelope.",
        messages: Object.fromEntries(list.map(({ name }) => [name, { $ref: `#/components/messages/${name}` }])),
      },
    },
    operations,
    components: { schemas, messages },
  };
}
