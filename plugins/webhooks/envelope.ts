// The body POSTed to a subscriber: the spec's delivery envelope (Events → Delivery envelope).
import type { OutboxEvent } from "../../host/events/outbox.ts";

/**
 * The envelope of an outbox event; a retraction names the event it retracts (`retracted_evt_id`), a recall the final
 * event it recalls (`recalled_evt_id`).
 */
export function envelope(event: OutboxEvent) {
  return {
    evt_id: event.id,
    type: event.type,
    version: 1,
    lifecycle_state: event.lifecycleState,
    ...(event.retractedEvtId ? { retracted_evt_id: event.retractedEvtId } : {}),
    ...(event.lifecycleState === "recalled" && event.previousEvtId ? { recalled_evt_id: event.previousEvtId } : {}),
    ...(event.idempotencyKey ? { request: { idempotency_key: event.idempotencyKey } } : {}),
    related: event.related,
    payload: event.payload,
  };
}
