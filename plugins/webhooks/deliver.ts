// The deliver task: one attempt of one delivery. Signs the envelope (Standard Webhooks), POSTs it, and records the
// outcome: a 2xx within 15 s succeeds; 410 disables the endpoint; anything else is tried again later (Retry-After on
// 429 and 503, else backoff.ts) until the attempts run out. At least once: a crash mid-attempt leaves the job to
// graphile-worker, which runs it again.
import type { Task } from "graphile-worker";
import { parseOutboxRow, selectOutbox } from "../../host/events/outbox.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { backoffMs, MAX_ATTEMPTS, retryAfterMs } from "./backoff.ts";
import { enqueueDeliveries } from "./enqueue.ts";
import { envelope } from "./envelope.ts";
import { signedHeaders, signingSecrets } from "./signing.ts";
import { type DeliveryRow, type EndpointRow, type WebhooksDb, webhooksDb } from "./tables.ts";
import { refusedTarget } from "./targets.ts";

const TIMEOUT_MS = 15_000;

interface Outcome {
  responseStatus: number | null;
  error: string | null;
  retryAfter: string | null;
}

async function post(endpoint: EndpointRow, headers: Record<string, string>, body: string): Promise<Outcome> {
  try {
    const res = await fetch(endpoint.url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "asset-platform-webhooks/1", ...headers },
      body,
      redirect: "manual", // a redirect could lead anywhere: it is a failure, not followed
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return {
      responseStatus: res.status,
      error: ok ? null : `HTTP ${res.status}`,
      retryAfter: res.headers.get("retry-after"),
    };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return { responseStatus: null, error: timedOut ? "no response within 15 s" : String(error), retryAfter: null };
  }
}

export function deliverTask(ctx: PluginContext): Task {
  const db = webhooksDb(ctx.db.platform);
  const allowPrivate = ctx.config.WEBHOOKS_ALLOW_PRIVATE_TARGETS;

  const finish = (delivery: DeliveryRow, set: Partial<Omit<DeliveryRow, "id">>, trx: WebhooksDb = db) =>
    trx.updateTable("webhookDeliveries").set(set).where("id", "=", delivery.id).execute();

  const hasReceipt = async (delivery: DeliveryRow) =>
    !!(await db
      .selectFrom("webhookReceipts")
      .select("evtId")
      .where("endpointId", "=", delivery.endpointId)
      .where("evtId", "=", delivery.evtId)
      .executeTakeFirst());

  return async (payload) => {
    const { deliveryId } = payload as { deliveryId: string };
    const delivery = await db
      .selectFrom("webhookDeliveries")
      .selectAll()
      .where("id", "=", deliveryId)
      .executeTakeFirst();
    if (!delivery || delivery.status === "succeeded" || delivery.status === "failed") return;
    if (delivery.status === "awaiting-receipt" && (await hasReceipt(delivery))) {
      await finish(delivery, { status: "succeeded", nextAttemptAt: null });
      return;
    }
    const endpoint = await db
      .selectFrom("webhookEndpoints")
      .selectAll()
      .where("id", "=", delivery.endpointId)
      .executeTakeFirst();
    const stored = await selectOutbox(ctx.db.platform).where("id", "=", delivery.evtId).executeTakeFirst();
    const event = stored && parseOutboxRow(stored);
    if (!endpoint || !event) return; // the endpoint was deleted (its deliveries with it)
    if (endpoint.disabled) {
      await finish(delivery, { status: "failed", lastError: "endpoint disabled", nextAttemptAt: null });
      return;
    }

    const attempt = delivery.attempt + 1;
    const now = new Date();
    const refused = await refusedTarget(endpoint.url, allowPrivate);
    const outcome: Outcome = refused
      ? { responseStatus: null, error: refused, retryAfter: null }
      : await (async () => {
          const body = JSON.stringify(envelope(event));
          const secrets = signingSecrets(endpoint, ctx.secrets.masterKey, now);
          return post(endpoint, signedHeaders(secrets, event.id, body, now), body);
        })();
    const { responseStatus, error } = outcome;

    if (error === null) {
      if (!ctx.webhookEvents.get(event.type)?.receiptRequired || (await hasReceipt(delivery))) {
        await finish(delivery, {
          attempt,
          status: "succeeded",
          responseStatus,
          lastError: null,
          deliveredAt: new Date(),
          nextAttemptAt: null,
        });
        return;
      }
      // Delivered, but the type wants a counter-signed receipt: deliver again on the schedule until one comes
      // (receipts.ts settles the delivery); past the schedule it waits for a receipt without more deliveries.
      const nextAttemptAt =
        attempt >= MAX_ATTEMPTS
          ? null
          : new Date(Date.now() + backoffMs(attempt, ctx.config.WEBHOOK_RETRY_BASE_SECONDS));
      await finish(delivery, {
        attempt,
        status: "awaiting-receipt",
        responseStatus,
        lastError: null,
        deliveredAt: delivery.deliveredAt ?? new Date(),
        nextAttemptAt,
      });
      if (nextAttemptAt)
        await enqueueDeliveries(ctx.db.platform, [{ id: delivery.id, endpointId: endpoint.id, runAt: nextAttemptAt }]);
      return;
    }
    if (responseStatus === 410) {
      // The receiver says the endpoint is gone for good: stop sending to it.
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("webhookEndpoints")
          .set({ disabled: true, disabledReason: "the receiver answered 410 Gone", updatedAt: new Date() })
          .where("id", "=", endpoint.id)
          .execute();
        await finish(
          delivery,
          { attempt, status: "failed", responseStatus, lastError: error, nextAttemptAt: null },
          trx,
        );
      });
      ctx.logger.warn("webhook endpoint disabled: 410 Gone", { endpointId: endpoint.id });
      return;
    }
    if (attempt >= MAX_ATTEMPTS) {
      await finish(delivery, { attempt, status: "failed", responseStatus, lastError: error, nextAttemptAt: null });
      return;
    }
    const honoured = responseStatus === 429 || responseStatus === 503 ? retryAfterMs(outcome.retryAfter) : null;
    const wait = honoured ?? backoffMs(attempt, ctx.config.WEBHOOK_RETRY_BASE_SECONDS);
    const nextAttemptAt = new Date(Date.now() + wait);
    await finish(delivery, { attempt, status: "retrying", responseStatus, lastError: error, nextAttemptAt });
    await enqueueDeliveries(ctx.db.platform, [{ id: delivery.id, endpointId: endpoint.id, runAt: nextAttemptAt }]);
  };
}
