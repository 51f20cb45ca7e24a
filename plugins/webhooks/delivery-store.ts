// The deliver task's reads and writes of one endpoint's deliveries (deliver.ts runs them in order).
import { sql } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";
import { parseOutboxRow, selectOutbox } from "../../host/events/outbox.ts";
import type { AttemptDecision } from "./attempt-outcome.ts";
import { envelope } from "./envelope.ts";
import type { PostOutcome } from "./post.ts";
import { type DeliveryRow, type DeliveryStatus, type WebhooksDb, webhooksDb } from "./tables.ts";

const BATCH = 200;
const DUE_STATUSES = ["pending", "retrying", "awaiting-receipt"] as const;

export function deliveryStore(platform: PlatformDb) {
  const db = webhooksDb(platform);
  const record = (id: string, set: Partial<Omit<DeliveryRow, "id">>, trx: WebhooksDb = db) =>
    trx.updateTable("webhookDeliveries").set(set).where("id", "=", id).execute();

  return {
    endpoint: (endpointId: string) =>
      db.selectFrom("webhookEndpoints").selectAll().where("id", "=", endpointId).executeTakeFirst(),

    /**
     * The endpoint's due deliveries, oldest due first. A state of a fact waits while the endpoint's delivery of the
     * state it follows (lifecycle-rules.ts) is still being tried: each fact's states reach the endpoint in order.
     */
    due: (endpointId: string) =>
      db
        .selectFrom("webhookDeliveries")
        .selectAll()
        .where("endpointId", "=", endpointId)
        .where("status", "in", DUE_STATUSES)
        .where(sql<boolean>`coalesce(next_attempt_at, created_at) <= now()`)
        .where(
          sql<boolean>`not exists (select 1 from platform.webhook_outbox o
            join platform.webhook_deliveries earlier on earlier.evt_id = o.previous_evt_id
              and earlier.endpoint_id = webhook_deliveries.endpoint_id and earlier.status in ('pending', 'retrying')
            where o.id = webhook_deliveries.evt_id)`,
        )
        .orderBy(sql`coalesce(next_attempt_at, created_at)`)
        .orderBy("id")
        .limit(BATCH)
        .execute(),

    /** The signed bodies of the deliveries' events, and which of them the endpoint has counter-signed already. */
    async bodiesAndReceipts(endpointId: string, due: DeliveryRow[]) {
      const evtIds = due.map((d) => d.evtId);
      const [events, receipts] = await Promise.all([
        selectOutbox(platform).where("id", "in", evtIds).execute(),
        db
          .selectFrom("webhookReceipts")
          .select("evtId")
          .where("endpointId", "=", endpointId)
          .where("evtId", "in", evtIds)
          .execute(),
      ]);
      return {
        bodies: new Map(events.map((e) => [e.id, JSON.stringify(envelope(parseOutboxRow(e)))])),
        received: new Set(receipts.map((r) => r.evtId)),
      };
    },

    /** A delivery the endpoint counter-signed meanwhile: settled without sending it again. */
    settleReceived: (delivery: DeliveryRow) => record(delivery.id, { status: "succeeded", nextAttemptAt: null }),

    /** Records an attempt's outcome as decided (attempt-outcome.ts). */
    async recordAttempt(delivery: DeliveryRow, outcome: PostOutcome, decision: AttemptDecision) {
      const { responseStatus, error } = outcome;
      const attempt = delivery.attempt + 1;
      switch (decision.kind) {
        case "succeeded":
          return record(delivery.id, {
            attempt,
            status: "succeeded",
            responseStatus,
            lastError: null,
            deliveredAt: new Date(),
            nextAttemptAt: null,
          });
        case "awaiting-receipt":
          return (
            db
              .updateTable("webhookDeliveries")
              .set({
                attempt,
                responseStatus,
                lastError: null,
                deliveredAt: delivery.deliveredAt ?? new Date(),
                nextAttemptAt: decision.nextAttemptAt,
              })
              // A receipt that came during the attempt has settled it already.
              .set({
                status: sql<DeliveryStatus>`case when status = 'succeeded' then 'succeeded' else 'awaiting-receipt' end`,
              })
              .where("id", "=", delivery.id)
              .execute()
          );
        case "gone":
          // The receiver says the endpoint is gone for good: stop sending to it.
          return db.transaction().execute(async (trx) => {
            await trx
              .updateTable("webhookEndpoints")
              .set({ disabled: true, disabledReason: "the receiver answered 410 Gone", updatedAt: new Date() })
              .where("id", "=", delivery.endpointId)
              .execute();
            await record(
              delivery.id,
              { attempt, status: "failed", responseStatus, lastError: error, nextAttemptAt: null },
              trx,
            );
          });
        case "failed":
          return record(delivery.id, {
            attempt,
            status: "failed",
            responseStatus,
            lastError: error,
            nextAttemptAt: null,
          });
        case "retrying":
          return record(delivery.id, {
            attempt,
            status: "retrying",
            responseStatus,
            lastError: error,
            nextAttemptAt: decision.nextAttemptAt,
          });
      }
    },

    /** Deliveries of a disabled endpoint are not sent: they fail. */
    failAll: (endpointId: string) =>
      db
        .updateTable("webhookDeliveries")
        .set({ status: "failed", lastError: "endpoint disabled", nextAttemptAt: null })
        .where("endpointId", "=", endpointId)
        .where("status", "in", DUE_STATUSES)
        .execute(),

    /** When the endpoint's next delivery falls due, if one is waiting. */
    async nextDueAt(endpointId: string): Promise<Date | undefined> {
      const next = await db
        .selectFrom("webhookDeliveries")
        .select((eb) => eb.fn.min("nextAttemptAt").as("at"))
        .where("endpointId", "=", endpointId)
        .where("status", "in", DUE_STATUSES)
        .where("nextAttemptAt", ">", new Date())
        .executeTakeFirst();
      return next?.at ? new Date(next.at) : undefined;
    },
  };
}
