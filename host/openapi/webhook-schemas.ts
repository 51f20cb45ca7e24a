// The JSON Schemas of webhook deliveries, built from the declared event types: the spec's delivery envelope of each
// type, its payload and the Standard Webhooks headers. Shared by the OpenAPI `webhooks` section and the webhooks
// plugin's AsyncAPI document, so both publish the same shapes under the same SDK names.
import { z } from "zod";
import { statesOf } from "../events/lifecycle-rules.ts";
import type { WebhookEventType } from "../plugin.ts";

export type JsonSchema = Record<string, unknown>;
export type WebhookEvents = ReadonlyMap<string, WebhookEventType>;

/** Where a subscriber counter-signs receipts (the webhooks plugin's route). */
export const WEBHOOK_RECEIPTS_PATH = "/api/v2/webhooks/receipts";

/** The SDK type name of an event type: its payload schema's `title`, else PascalCase of the type + `V1`. */
export function webhookSdkName(type: string, event: WebhookEventType): string {
  const title = event.payload.meta()?.title;
  if (typeof title === "string" && title) return title;
  const words = type.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return `${words.map((w) => w[0].toUpperCase() + w.slice(1)).join("")}V1`;
}

/** The event types, sorted by type, with their SDK names. */
export function webhookEventList(events: WebhookEvents) {
  return [...events]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, event]) => ({ type, event, name: webhookSdkName(type, event) }));
}

/** The payload's JSON Schema as published (the output a subscriber receives), never open to other properties. */
export function webhookPayloadSchema(event: WebhookEventType): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(event.payload, { io: "output", unrepresentable: "any" });
  if (schema.type === "object") schema.additionalProperties ??= false;
  return schema;
}

export const lifecycleOf = (event: WebhookEventType) => event.lifecycle ?? "final";

/** The type's description with its lifecycle and receipt rule spelled out. */
export function webhookDescription(type: string, event: WebhookEventType): string {
  const pending = event.fromIndex?.pending
    ? "`pending` when a platform write that will produce it is broadcast (before it is mined; its transactionHash), "
    : "";
  const recall =
    " A reorg deeper than the depth that replaces the block a `final` delivery told of is told by `recalled`, " +
    "naming it in `recalled_evt_id`. Each fact's states reach an endpoint once each, in that order.";
  const lifecycle =
    lifecycleOf(event) === "provisional"
      ? `Lifecycle: ${pending}\`provisional\` when indexed inside the reorg depth, then \`final\` past the depth, ` +
        "or `retracted` (naming the event in `retracted_evt_id`) when a reorg inside the depth removes it or the " +
        `write ends unmined.${recall}`
      : `Lifecycle: \`final\`, told once past the reorg depth.${recall}`;
  const receipt = event.receiptRequired
    ? `Receipt: for endpoints with \`receiptRequired\`, a \`final\` delivery is sent again until counter-signed (POST ${WEBHOOK_RECEIPTS_PATH}).`
    : "No receipt required.";
  return `\`${type}\`: ${event.description} ${lifecycle} ${receipt}`;
}

/** The spec's delivery envelope of one event type; `payload` is the payload schema or a `$ref` to it. */
export function webhookEnvelopeSchema(
  type: string,
  event: WebhookEventType,
  name: string,
  payload: JsonSchema,
): JsonSchema {
  return {
    title: name,
    description: webhookDescription(type, event),
    type: "object",
    properties: {
      evt_id: { type: "string", description: "The event's id; equals the `webhook-id` header" },
      type: { type: "string", const: type },
      version: { type: "integer", const: 1 },
      lifecycle_state: { type: "string", enum: statesOf(event) },
      retracted_evt_id: {
        type: "string",
        description: "On a `retracted` delivery: the `evt_id` of the pending or provisional event it retracts",
      },
      recalled_evt_id: {
        type: "string",
        description: "On a `recalled` delivery: the `evt_id` of the final event a reorg deeper than the depth undid",
      },
      request: {
        type: "object",
        description: "Present when the event comes from an API request",
        properties: { idempotency_key: { type: "string" } },
        required: ["idempotency_key"],
        additionalProperties: false,
      },
      related: {
        type: "object",
        description: "Indexed reference ids (`idxr_*`)",
        additionalProperties: { type: "string" },
      },
      payload,
    },
    required: ["evt_id", "type", "version", "lifecycle_state", "related", "payload"],
    additionalProperties: false,
  };
}

/** The Standard Webhooks headers of every delivery. */
export const WEBHOOK_HEADERS: { name: string; description: string; schema: JsonSchema }[] = [
  { name: "webhook-id", description: "The event's `evt_id`", schema: { type: "string" } },
  {
    name: "webhook-timestamp",
    description: "Unix seconds of the attempt",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  {
    name: "webhook-signature",
    description:
      "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the endpoint's secret; two space-separated signatures " +
      "while a rotated secret still signs. Verify it, a timestamp at most five minutes old and the id (Standard Webhooks).",
    schema: { type: "string" },
  },
];
