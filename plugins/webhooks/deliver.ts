// The deliver task drains one endpoint: every due delivery (new, retrying, or awaiting a receipt) is signed
// (Standard Webhooks), POSTed (up to IN_FLIGHT at once) and its outcome recorded: a 2xx within 15 s succeeds (or
// awaits a counter-signed receipt when the type wants one); 410 disables the endpoint; anything else is tried again
// later (Retry-After on 429 and 503, else backoff.ts) until the attempts run out. At least once: a crash mid-drain
// leaves the unsent deliveries due, and graphile-worker runs the job again.
import { sql } from "kysely";
import { parseOutboxRow, selectOutbox } from "../../host/events/outbox.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { backoffMs, MAX_ATTEMPTS, retryAfterMs } from "./backoff.ts";
import { wakeEndpoints } from "./enqueue.ts";
import { envelope } from "./envelope.ts";
import { DeliverPayload } from "./names.ts";
import { type PostOutcome, postDelivery } from "./post.ts";
import { privateTargetRanges, type WebhookSettings } from "./settings.ts";
import { signedHeaders, signingSecrets } from "./signing.ts";
import { type DeliveryRow, type DeliveryStatus, type EndpointRow, type WebhooksDb, webhooksDb } from "./tables.ts";
import { refusedTarget, targetPolicy } from "./targets.ts";

const TIMEOUT_MS = 15_000;
const BATCH = 200;
const IN_FLIGHT = 16;
/** A drain gives its worker slot back after this long (and wakes again at once), so busy endpoints take turns. */
const DRAIN_BUDGET_MS = 10_000;
const DUE_STATUSES = ["pending", "retrying", "awaiting-receipt"] as const;

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export function deliverTask(ctx: PluginContext<"secrets", WebhookSettings>) {
  const db = webhooksDb(ctx.db.platform);
  const policy = targetPolicy(privateTargetRanges(ctx.settings, ctx.config));
  const receiptRequired = (type: string) => ctx.webhookEvents.get(type)?.receiptRequired === true;

  const record = (id: string, set: Partial<Omit<DeliveryRow, "id">>, trx: WebhooksDb = db) =>
    trx.updateTable("webhookDeliveries").set(set).where("id", "=", id).execute();

  /** The endpoint's due deliveries with their events, oldest due first. */
  const dueDeliveries = (endpointId: string) =>
    db
      .selectFrom("webhookDeliveries")
      .selectAll()
      .where("endpointId", "=", endpointId)
      .where("status", "in", DUE_STATUSES)
      .where(sql<boolean>`coalesce(next_attempt_at, created_at) <= now()`)
      .orderBy(sql`coalesce(next_attempt_at, created_at)`)
      .orderBy("id")
      .limit(BATCH)
      .execute();

  /** One attempt of one delivery, and its outcome recorded; true when the receiver answered 410. */
  async function attempt(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
    body: string,
    target: { refused: string | null; secrets: string[] },
  ) {
    const { refused, secrets } = target;
    const now = new Date();
    const outcome: PostOutcome = refused
      ? { responseStatus: null, error: refused, retryAfter: null }
      : await postDelivery(endpoint.url, signedHeaders(secrets, delivery.evtId, body, now), body, {
          timeoutMs: TIMEOUT_MS,
          policy,
        });
    const { responseStatus, error } = outcome;
    const tried = delivery.attempt + 1;
    if (error === null) {
      if (!receiptRequired(delivery.type)) {
        await record(delivery.id, {
          attempt: tried,
          status: "succeeded",
          responseStatus,
          lastError: null,
          deliveredAt: new Date(),
          nextAttemptAt: null,
        });
        return false;
      }
      // Delivered, but the type wants a counter-signed receipt: deliver again on the schedule until one comes
      // (receipts.ts settles the delivery); past the schedule it waits for a receipt without more deliveries.
      const again =
        tried >= MAX_ATTEMPTS ? null : new Date(Date.now() + backoffMs(tried, ctx.settings.WEBHOOK_RETRY_BASE_SECONDS));
      await db
        .updateTable("webhookDeliveries")
        .set({
          attempt: tried,
          responseStatus,
          lastError: null,
          deliveredAt: delivery.deliveredAt ?? new Date(),
          nextAttemptAt: again,
        })
        // A receipt that came during the attempt has settled it already.
        .set({
          status: sql<DeliveryStatus>`case when status = 'succeeded' then 'succeeded' else 'awaiting-receipt' end`,
        })
        .where("id", "=", delivery.id)
        .execute();
      return false;
    }
    if (responseStatus === 410) {
      // The receiver says the endpoint is gone for good: stop sending to it.
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("webhookEndpoints")
          .set({ disabled: true, disabledReason: "the receiver answered 410 Gone", updatedAt: new Date() })
          .where("id", "=", endpoint.id)
          .execute();
        await record(
          delivery.id,
          { attempt: tried, status: "failed", responseStatus, lastError: error, nextAttemptAt: null },
          trx,
        );
      });
      ctx.logger.warn("webhook endpoint disabled: 410 Gone", { endpointId: endpoint.id });
      return true;
    }
    if (tried >= MAX_ATTEMPTS) {
      await record(delivery.id, {
        attempt: tried,
        status: "failed",
        responseStatus,
        lastError: error,
        nextAttemptAt: null,
      });
      return false;
    }
    const honoured = responseStatus === 429 || responseStatus === 503 ? retryAfterMs(outcome.retryAfter) : null;
    const wait = honoured ?? backoffMs(tried, ctx.settings.WEBHOOK_RETRY_BASE_SECONDS);
    await record(delivery.id, {
      attempt: tried,
      status: "retrying",
      responseStatus,
      lastError: error,
      nextAttemptAt: new Date(Date.now() + wait),
    });
    return false;
  }

  /** Deliveries of a disabled endpoint are not sent: they fail. */
  const failAll = (endpointId: string) =>
    db
      .updateTable("webhookDeliveries")
      .set({ status: "failed", lastError: "endpoint disabled", nextAttemptAt: null })
      .where("endpointId", "=", endpointId)
      .where("status", "in", DUE_STATUSES)
      .execute();

  return defineTask(DeliverPayload, async ({ endpointId }) => {
    if (endpointId === undefined) return; // a job of the per-delivery design before it: the sweep wakes its endpoint
    const started = Date.now();
    for (;;) {
      const endpoint = await db
        .selectFrom("webhookEndpoints")
        .selectAll()
        .where("id", "=", endpointId)
        .executeTakeFirst();
      if (!endpoint) return; // deleted, its deliveries with it
      if (endpoint.disabled) {
        await failAll(endpoint.id);
        return;
      }
      const due = await dueDeliveries(endpoint.id);
      if (due.length === 0) break;
      const [events, receipts] = await Promise.all([
        selectOutbox(ctx.db.platform)
          .where(
            "id",
            "in",
            due.map((d) => d.evtId),
          )
          .execute(),
        db
          .selectFrom("webhookReceipts")
          .select("evtId")
          .where("endpointId", "=", endpoint.id)
          .where(
            "evtId",
            "in",
            due.map((d) => d.evtId),
          )
          .execute(),
      ]);
      const bodies = new Map(events.map((e) => [e.id, JSON.stringify(envelope(parseOutboxRow(e)))]));
      const received = new Set(receipts.map((r) => r.evtId));
      // Once a batch: the target's check (a DNS lookup) and the endpoint's secrets (unsealed).
      const target = {
        refused: await refusedTarget(endpoint.url, policy),
        secrets: signingSecrets(endpoint, ctx.secrets.masterKey),
      };
      let gone = false;
      await eachLimited(due, IN_FLIGHT, async (delivery) => {
        if (gone) return;
        if (received.has(delivery.evtId)) {
          await record(delivery.id, { status: "succeeded", nextAttemptAt: null });
          return;
        }
        const body = bodies.get(delivery.evtId);
        if (body === undefined) return;
        if (await attempt(endpoint, delivery, body, target)) gone = true;
      });
      if (gone) {
        await failAll(endpoint.id);
        return;
      }
      if (Date.now() - started > DRAIN_BUDGET_MS) {
        await wakeEndpoints(ctx.db.platform, [endpoint.id]); // more is due: take a turn behind the others
        return;
      }
    }
    // Nothing due now: wake when the next delivery is.
    const next = await db
      .selectFrom("webhookDeliveries")
      .select((eb) => eb.fn.min("nextAttemptAt").as("at"))
      .where("endpointId", "=", endpointId)
      .where("status", "in", DUE_STATUSES)
      .where("nextAttemptAt", ">", new Date())
      .executeTakeFirst();
    if (next?.at) await wakeEndpoints(ctx.db.platform, [endpointId], { at: new Date(next.at), keepEarlier: true });
  });
}
