// The OpenAPI 3.1 `webhooks` section: one POST the platform sends per declared event type, its body the delivery
// envelope (component `<SdkName>`, its payload `<SdkName>Payload`), with the Standard Webhooks headers.
import {
  type JsonSchema,
  lifecycleOf,
  WEBHOOK_HEADERS,
  type WebhookEvents,
  webhookDescription,
  webhookEnvelopeSchema,
  webhookEventList,
  webhookPayloadSchema,
} from "./webhook-schemas.ts";

export interface WebhooksSection {
  webhooks: Record<string, unknown>;
  schemas: Record<string, JsonSchema>;
}

export function webhooksSection(events: WebhookEvents): WebhooksSection {
  const webhooks: Record<string, unknown> = {};
  const schemas: Record<string, JsonSchema> = {};
  for (const { type, event, name } of webhookEventList(events)) {
    const payloadName = `${name}Payload`;
    schemas[payloadName] = { ...webhookPayloadSchema(event), title: payloadName };
    schemas[name] = webhookEnvelopeSchema(type, event, name, { $ref: `#/components/schemas/${payloadName}` });
    webhooks[type] = {
      post: {
        tags: ["webhooks"],
        summary: event.description,
        description: webhookDescription(type, event),
        security: [],
        parameters: WEBHOOK_HEADERS.map(({ name: header, description, schema }) => ({
          name: header,
          in: "header",
          required: true,
          description,
          schema,
        })),
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          "2XX": { description: "Received (answer within 15 s)" },
          "410": { description: "Gone: the platform disables the endpoint" },
          default: { description: "Delivered again with backoff (429 and 503 honour Retry-After)" },
        },
        "x-lifecycle": lifecycleOf(event),
        "x-receipt-required": event.receiptRequired ?? false,
      },
    };
  }
  return { webhooks, schemas };
}
