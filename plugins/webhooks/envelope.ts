// The body POSTed to a subscriber: the spec's delivery envelope (Events → Delivery envelope).
import type { Selectable } from "kysely";
import type { WebhookOutboxTable } from "../../host/db/platform-types.ts";

export type OutboxRow = Selectable<WebhookOutboxTable>;

/**
 * An event's lifecycle state when it is fanned out: its type says so (`….provisional`); every other event tells of
 * a committed write and is final. A later outcome (e.g. `retracted`) is a delivery of its own.
 */
export function lifecycleStateOf(type: string): string {
  return type.endsWith(".provisional") ? "provisional" : "final";
}

export function envelope(event: OutboxRow, lifecycleState: string) {
  return {
    evt_id: event.id,
    type: event.type,
    version: 1,
    lifecycle_state: lifecycleState,
    ...(event.idempotencyKey ? { request: { idempotency_key: event.idempotencyKey } } : {}),
    related: event.related,
    payload: event.payload,
  };
}
