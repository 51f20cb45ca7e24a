// Reading an organisation's endpoint (another organisation's is not found) and its public shape.
import { ApiError } from "../../host/errors/api-error.ts";
import type { LifecycleState } from "../../host/events/lifecycle-rules.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { privateTargetRanges, type WebhookSettings } from "./settings.ts";
import type { DeliveryRow, EndpointRow, WebhooksDb } from "./tables.ts";
import { refusedTarget, targetPolicy } from "./targets.ts";

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export const toEndpoint = (row: EndpointRow) => ({
  id: row.id,
  url: row.url,
  eventTypes: row.eventTypes,
  description: row.description,
  filters: row.filters,
  receiptRequired: row.receiptRequired,
  disabled: row.disabled,
  createdAt: new Date(row.createdAt).toISOString(),
});

/**
 * An endpoint's deliveries with what links each to its cause: the API request (transaction request id and
 * idempotency key) and the transaction the event tells of.
 */
export const deliveriesOf = (db: WebhooksDb, endpointId: string) =>
  db
    .selectFrom((eb) =>
      eb
        .selectFrom("webhookDeliveries as d")
        .innerJoin("webhookOutbox as o", "o.id", "d.evtId")
        .selectAll("d")
        .select(["o.requestId", "o.idempotencyKey", "o.transactionHash", "o.retractedEvtId", "o.previousEvtId"])
        .where("d.endpointId", "=", endpointId)
        .as("d"),
    )
    .selectAll();

type LinkedDelivery = DeliveryRow & {
  requestId: string | null;
  idempotencyKey: string | null;
  transactionHash: string | null;
  retractedEvtId: string | null;
  previousEvtId: string | null;
};

export const toDelivery = (row: LinkedDelivery) => ({
  id: row.id,
  evtId: row.evtId,
  type: row.type,
  lifecycleState: row.lifecycleState as LifecycleState,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.responseStatus,
  nextAttemptAt: iso(row.nextAttemptAt),
  deliveredAt: iso(row.deliveredAt),
  createdAt: new Date(row.createdAt).toISOString(),
  retractedEvtId: row.retractedEvtId,
  previousEvtId: row.previousEvtId,
  requestId: row.requestId,
  idempotencyKey: row.idempotencyKey,
  transactionHash: row.transactionHash,
});

export async function findEndpoint(db: WebhooksDb, organizationId: string, id: string): Promise<EndpointRow> {
  const row = await db
    .selectFrom("webhookEndpoints")
    .selectAll()
    .where("id", "=", id)
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  if (!row)
    throw new ApiError("WEBHOOK_ENDPOINT_NOT_FOUND", {
      message: `No webhook endpoint ${id}`,
      details: { endpointId: id },
    });
  return row;
}

/** Refuses a URL the platform may not call and event types no plugin emits (422, naming the field). */
export async function assertSubscribable(
  ctx: PluginContext<never, WebhookSettings>,
  input: { url?: string; eventTypes?: string[] },
) {
  if (input.url !== undefined) {
    const refused = await refusedTarget(input.url, targetPolicy(privateTargetRanges(ctx.settings, ctx.config)));
    if (refused) throw new ApiError("WEBHOOK_URL_NOT_ALLOWED", { message: refused, details: { field: "url" } });
  }
  const unknown = (input.eventTypes ?? []).filter((type) => !ctx.webhookEvents.has(type));
  if (unknown.length > 0)
    throw new ApiError("WEBHOOK_EVENT_TYPE_UNKNOWN", {
      message: `Unknown event types: ${unknown.join(", ")}`,
      details: { field: "eventTypes", unknown },
    });
}
