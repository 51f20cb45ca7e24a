// Counter-signed receipts: a subscriber confirms it received an event by POSTing `{evtId, receivedAt}` signed
// (Standard Webhooks headers) with the secret of the endpoint the event was delivered to. That signature is the
// credential: the route needs no API key. A delivery of a type that wants a receipt stays `awaiting-receipt`, and is
// delivered again on the retry schedule, until one comes (deliver.ts).
import { createRoute, z } from "@hono/zod-openapi";
import { Webhook } from "standardwebhooks";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, IsoTimestampSchema, jsonBody, jsonResponse } from "../../host/http/schemas.ts";
import { WEBHOOK_RECEIPTS_PATH } from "../../host/openapi/webhook-schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { envelope } from "./schemas.ts";
import { signingSecrets } from "./signing.ts";
import { type WebhooksDb, webhooksDb } from "./tables.ts";

// The host's constant: the published documents name this route too.
export const RECEIPTS_PATH = WEBHOOK_RECEIPTS_PATH;
const tags = ["webhooks"];

const ReceiptBodySchema = z
  .object({
    evtId: z.string().min(1).max(64).openapi({ description: "The event's evt_id (its webhook-id)" }),
    receivedAt: IsoTimestampSchema.openapi({ description: "When the subscriber received the event" }),
  })
  .strict()
  .openapi("WebhookReceiptSubmit");

const ReceiptSchema = z
  .object({
    evtId: z.string(),
    endpointId: z.string(),
    receiptId: z.string().openapi({ description: "The receipt's own webhook-id header" }),
    receivedAt: z.string(),
    recordedAt: z.string(),
  })
  .openapi("WebhookReceipt");

const EventReceiptsSchema = z
  .object({ evtId: z.string(), type: z.string(), receipts: z.array(ReceiptSchema) })
  .openapi("WebhookEventReceipts");

const signatureHeaders = z.object({
  "webhook-id": z.string().optional().openapi({ description: "A unique id of this receipt" }),
  "webhook-timestamp": z.string().optional().openapi({ description: "Unix seconds; at most five minutes old" }),
  "webhook-signature": z.string().optional().openapi({
    description: "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the endpoint's secret",
  }),
});

const submitReceipt = createRoute({
  method: "post",
  path: RECEIPTS_PATH,
  tags,
  summary: "Counter-sign the receipt of an event (authenticated by the Standard Webhooks signature, no API key)",
  security: [],
  request: { headers: signatureHeaders, body: jsonBody(ReceiptBodySchema) },
  responses: {
    201: jsonResponse(envelope(ReceiptSchema), "The receipt, recorded"),
    200: jsonResponse(envelope(ReceiptSchema), "The receipt recorded before for this endpoint and event"),
    ...errorResponses,
  },
});

const readReceipts = createRoute({
  method: "get",
  path: `${RECEIPTS_PATH}/{evtId}`,
  tags,
  summary: "The receipts subscribers counter-signed for an event",
  middleware: [requirePermission("webhooks:manage")],
  request: { params: z.object({ evtId: z.string().min(1).max(64) }) },
  responses: { 200: jsonResponse(envelope(EventReceiptsSchema), "The event's receipts"), ...errorResponses },
});

const toReceipt = (row: {
  evtId: string;
  endpointId: string;
  receiptId: string;
  receivedAt: Date;
  recordedAt: Date;
}) => ({
  evtId: row.evtId,
  endpointId: row.endpointId,
  receiptId: row.receiptId,
  receivedAt: new Date(row.receivedAt).toISOString(),
  recordedAt: new Date(row.recordedAt).toISOString(),
});

/** The endpoint (among those the event was delivered to) whose secret signed the receipt, if any. */
async function signingEndpoint(
  ctx: PluginContext<"secrets">,
  db: WebhooksDb,
  evtId: string,
  body: string,
  headers: Headers,
) {
  const endpoints = await db
    .selectFrom("webhookDeliveries as d")
    .innerJoin("webhookEndpoints as e", "e.id", "d.endpointId")
    .selectAll("e")
    .where("d.evtId", "=", evtId)
    .execute();
  const signed = {
    "webhook-id": headers.get("webhook-id") ?? "",
    "webhook-timestamp": headers.get("webhook-timestamp") ?? "",
    "webhook-signature": headers.get("webhook-signature") ?? "",
  };
  for (const endpoint of endpoints) {
    for (const secret of signingSecrets(endpoint, ctx.secrets.masterKey)) {
      try {
        new Webhook(secret).verify(body, signed); // also refuses a timestamp more than five minutes away
        return endpoint;
      } catch {}
    }
  }
  return undefined;
}

export function receiptRoutes(app: App, ctx: PluginContext<"secrets">) {
  const db = webhooksDb(ctx.db.platform);

  app.openapi(submitReceipt, async (c) => {
    const { evtId, receivedAt } = c.req.valid("json");
    const endpoint = await signingEndpoint(ctx, db, evtId, await c.req.text(), c.req.raw.headers);
    // An unknown event and a wrong signature answer alike: the route tells nothing to whoever lacks a secret.
    if (!endpoint) throw new ApiError("WEBHOOK_RECEIPT_SIGNATURE_INVALID", { details: { evtId } });
    const receiptId = c.req.header("webhook-id") as string;
    const recorded = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto("webhookReceipts")
        .values({ endpointId: endpoint.id, evtId, receiptId, receivedAt })
        .onConflict((oc) => oc.columns(["endpointId", "evtId"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      // The event is in: no more deliveries of it to this endpoint (a pending job finds it succeeded).
      await trx
        .updateTable("webhookDeliveries")
        .set({ status: "succeeded", nextAttemptAt: null })
        .where("endpointId", "=", endpoint.id)
        .where("evtId", "=", evtId)
        .where("status", "in", ["pending", "retrying", "awaiting-receipt"])
        .execute();
      return inserted;
    });
    if (recorded) return c.json(single(c, toReceipt(recorded)), 201);
    const earlier = await db
      .selectFrom("webhookReceipts")
      .selectAll()
      .where("endpointId", "=", endpoint.id)
      .where("evtId", "=", evtId)
      .executeTakeFirstOrThrow();
    return c.json(single(c, toReceipt(earlier)), 200);
  });

  app.openapi(readReceipts, async (c) => {
    const { evtId } = c.req.valid("param");
    const event = await db
      .selectFrom("webhookOutbox")
      .select(["id", "type"])
      .where("id", "=", evtId)
      .where("organizationId", "=", c.get("principal").organizationId)
      .executeTakeFirst();
    if (!event) throw new ApiError("WEBHOOK_EVENT_NOT_FOUND", { details: { evtId } });
    const receipts = await db
      .selectFrom("webhookReceipts")
      .selectAll()
      .where("evtId", "=", evtId)
      .orderBy("recordedAt")
      .execute();
    return c.json(single(c, { evtId, type: event.type, receipts: receipts.map(toReceipt) }), 200);
  });
}
