// The deliver task drains one endpoint: every due delivery (new, retrying, or awaiting a receipt) is signed
// (Standard Webhooks), POSTed (up to IN_FLIGHT at once) and its outcome recorded: a 2xx within 15 s succeeds (or
// awaits a counter-signed receipt when the endpoint asks for them and the type wants one); 410 disables the endpoint; anything else is tried again
// later (Retry-After on 429 and 503, else backoff.ts) until the attempts run out. At least once: a crash mid-drain
// leaves the unsent deliveries due, and graphile-worker runs the job again.
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { decideAttempt } from "./attempt-outcome.ts";
import { deliveryStore } from "./delivery-store.ts";
import { wakeEndpoints } from "./enqueue.ts";
import { DeliverPayload } from "./names.ts";
import { type PostOutcome, postDelivery } from "./post.ts";
import { privateTargetRanges, type WebhookSettings } from "./settings.ts";
import { signedHeaders, signingSecrets } from "./signing.ts";
import type { DeliveryRow, EndpointRow } from "./tables.ts";
import { refusedTarget, targetPolicy } from "./targets.ts";

const TIMEOUT_MS = 15_000;
const IN_FLIGHT = 16;
/** A drain gives its worker slot back after this long (and wakes again at once), so busy endpoints take turns. */
const DRAIN_BUDGET_MS = 10_000;

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export function deliverTask(ctx: PluginContext<"secrets", WebhookSettings>) {
  const store = deliveryStore(ctx.db.platform);
  const policy = targetPolicy(privateTargetRanges(ctx.settings, ctx.config));
  // Only a final delivery, to an endpoint that asks for receipts, of a type that wants them (by default a 2xx is it).
  const receiptRequired = (endpoint: EndpointRow, delivery: DeliveryRow) =>
    endpoint.receiptRequired &&
    delivery.lifecycleState === "final" &&
    ctx.webhookEvents.get(delivery.type)?.receiptRequired === true;

  /** One attempt of one delivery, and its outcome recorded; true when the receiver answered 410. */
  async function attempt(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
    body: string,
    target: { refused: string | null; secrets: string[] },
  ) {
    const { refused, secrets } = target;
    const outcome: PostOutcome = refused
      ? { responseStatus: null, error: refused, retryAfter: null }
      : await postDelivery(endpoint.url, signedHeaders(secrets, delivery.evtId, body, new Date()), body, {
          timeoutMs: TIMEOUT_MS,
          policy,
        });
    const decision = decideAttempt(outcome, {
      tried: delivery.attempt + 1,
      receiptRequired: receiptRequired(endpoint, delivery),
      retryBaseSeconds: ctx.settings.WEBHOOK_RETRY_BASE_SECONDS,
    });
    await store.recordAttempt(delivery, outcome, decision);
    if (decision.kind === "gone") ctx.logger.warn("webhook endpoint disabled: 410 Gone", { endpointId: endpoint.id });
    return decision.kind === "gone";
  }

  /** One batch of the endpoint's due deliveries; false when there was none, "gone" when the receiver answered 410. */
  async function deliverBatch(endpoint: EndpointRow): Promise<boolean | "gone"> {
    const due = await store.due(endpoint.id);
    if (due.length === 0) return false;
    const { bodies, received } = await store.bodiesAndReceipts(endpoint.id, due);
    // Once a batch: the target's check (a DNS lookup) and the endpoint's secrets (unsealed).
    const target = {
      refused: await refusedTarget(endpoint.url, policy),
      secrets: signingSecrets(endpoint, ctx.secrets.masterKey),
    };
    let gone = false;
    await eachLimited(due, IN_FLIGHT, async (delivery) => {
      if (gone) return;
      if (received.has(delivery.evtId)) return void (await store.settleReceived(delivery));
      const body = bodies.get(delivery.evtId);
      if (body === undefined) return;
      if (await attempt(endpoint, delivery, body, target)) gone = true;
    });
    return gone ? "gone" : true;
  }

  return defineTask(DeliverPayload, async ({ endpointId }) => {
    if (endpointId === undefined) return; // a job of the per-delivery design before it: the sweep wakes its endpoint
    const started = Date.now();
    for (;;) {
      const endpoint = await store.endpoint(endpointId);
      if (!endpoint) return; // deleted, its deliveries with it
      if (endpoint.disabled) return void (await store.failAll(endpoint.id));
      const delivered = await deliverBatch(endpoint);
      if (delivered === "gone") return void (await store.failAll(endpoint.id));
      if (!delivered) break;
      if (Date.now() - started > DRAIN_BUDGET_MS) {
        await wakeEndpoints(ctx.db.platform, [endpoint.id]); // more is due: take a turn behind the others
        return;
      }
    }
    // Nothing due now: wake when the next delivery is.
    const next = await store.nextDueAt(endpointId);
    if (next) await wakeEndpoints(ctx.db.platform, [endpointId], { at: next, keepEarlier: true });
  });
}
