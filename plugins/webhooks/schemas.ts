// The plugin's request and response shapes (zod, so the OpenAPI document describes them).
import { z } from "@hono/zod-openapi";
import { LIFECYCLE_STATES } from "../../host/events/lifecycle-rules.ts";
import { IsoTimestampSchema, linksSelf } from "../../host/http/schemas.ts";
import { EndpointFiltersSchema } from "./filters.ts";
import { DELIVERY_STATUSES } from "./tables.ts";

const EventTypes = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(100)
  .openapi({
    description: "Event types to receive (GET /api/v2/webhooks/event-types)",
    example: ["token.transfer.final"],
  });
const Url = z.string().min(1).max(2048).openapi({ example: "https://example.com/webhooks" });
const Description = z.string().trim().max(500);
const ReceiptRequired = z.boolean().openapi({
  description:
    "false (the default): a 2xx answer is a delivery. true: a `final` delivery of a type that asks for receipts " +
    "(x-receipt-required) is delivered again until the subscriber counter-signs it (POST /api/v2/webhooks/receipts).",
});

export const CreateEndpointBodySchema = z
  .object({
    url: Url,
    eventTypes: EventTypes,
    description: Description.optional(),
    filters: EndpointFiltersSchema.optional(),
    receiptRequired: ReceiptRequired.optional(),
  })
  .strict()
  .openapi("WebhookEndpointCreate");

export const UpdateEndpointBodySchema = z
  .object({
    url: Url.optional(),
    eventTypes: EventTypes.optional(),
    description: Description.nullable().optional(),
    disabled: z.boolean().optional(),
    filters: EndpointFiltersSchema.optional().openapi({ description: "Replaces the filters; `{}` removes them" }),
    receiptRequired: ReceiptRequired.optional(),
  })
  .strict()
  .openapi("WebhookEndpointUpdate");

export const EndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    eventTypes: z.array(z.string()),
    description: z.string().nullable(),
    filters: EndpointFiltersSchema,
    receiptRequired: z.boolean(),
    disabled: z.boolean(),
    createdAt: z.string(),
  })
  .openapi("WebhookEndpoint");

export const EndpointWithSecretSchema = EndpointSchema.extend({
  secret: z.string().openapi({
    description:
      "`whsec_` + base64; shown only at creation and on rotation. Verify deliveries with it (Standard Webhooks).",
  }),
}).openapi("WebhookEndpointWithSecret");

export const DeliverySchema = z
  .object({
    id: z.string(),
    evtId: z.string(),
    type: z.string(),
    lifecycleState: z.enum(LIFECYCLE_STATES),
    attempt: z.number().int().openapi({ description: "Attempts made so far" }),
    status: z.enum(DELIVERY_STATUSES),
    responseStatus: z.number().int().nullable(),
    nextAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
    retractedEvtId: z
      .string()
      .nullable()
      .openapi({ description: "For a retraction: the pending or provisional event it retracts" }),
    previousEvtId: z.string().nullable().openapi({
      description: "The event of the same fact this one follows (its delivery waits for that one's to settle)",
    }),
    requestId: z
      .string()
      .nullable()
      .openapi({ description: "The API request (transaction request id) whose write the event tells of" }),
    idempotencyKey: z.string().nullable().openapi({ description: "That request's idempotency key" }),
    transactionHash: z.string().nullable().openapi({ description: "The transaction the event tells of" }),
  })
  .openapi("WebhookDelivery");

export const EventTypeSchema = z
  .object({
    type: z.string(),
    description: z.string(),
    version: z.number().int(),
    sdkName: z
      .string()
      .openapi({ description: "The type's name in the SDK (Webhook.<sdkName>) and the AsyncAPI document" }),
    lifecycle: z.enum(["provisional", "final"]).openapi({
      description:
        "provisional: told pending (when a platform write that will produce it is broadcast), provisional (inside " +
        "the reorg depth), then final or retracted; final: told once past the depth. Either is recalled when a " +
        "reorg deeper than the depth replaces the block it was final in.",
    }),
    lifecycleStates: z
      .array(z.enum(LIFECYCLE_STATES))
      .openapi({ description: "The lifecycle_state values its deliveries may carry, in lifecycle order" }),
    receiptRequired: z.boolean().openapi({
      description:
        "Its final deliveries to an endpoint with receiptRequired wait for a receipt: POST /api/v2/webhooks/receipts",
    }),
    payloadSchema: z.record(z.string(), z.unknown()).openapi({ description: "The payload's JSON Schema" }),
  })
  .openapi("WebhookEventType");

export const ReplayBodySchema = z
  .object({ since: IsoTimestampSchema.openapi({ description: "Re-send every event recorded at or after this time" }) })
  .strict()
  .openapi("WebhookReplay");

export const ReplaySchema = z.object({ replayed: z.number().int() }).openapi("WebhookReplayResult");

export const EndpointIdParams = z.object({ id: z.string().min(1).max(64) });
export const DeliveryIdParams = EndpointIdParams.extend({ deliveryId: z.string().min(1).max(64) });

export const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ data, links: linksSelf });
