// An endpoint's deliveries: the list, a retry of one (now), and a replay of every subscribed event since a time
// (same evt_ids, so a subscriber that stores them sees repeats, not new events).
import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { idempotentResponse } from "../../host/http/idempotent-response.ts";
import { errorResponses, jsonBody, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { DELIVERY_COLLECTION } from "./collections.ts";
import { PATH } from "./endpoint-routes.ts";
import { deliveriesOf, findEndpoint, toDelivery } from "./endpoints.ts";
import { wakeEndpoints } from "./enqueue.ts";
import { passesFilters } from "./filters.ts";
import {
  DeliveryIdParams,
  DeliverySchema,
  EndpointIdParams,
  envelope,
  ReplayBodySchema,
  ReplaySchema,
} from "./schemas.ts";
import { webhooksDb } from "./tables.ts";

const tags = ["webhooks"];
const manage = requirePermission("webhooks:manage");
/** Repeats answer the recorded result: a retried retry or replay does not send the events again. */
const idempotentWrite = { "idempotency-key": z.string().max(255).optional() };
/** A replay re-sends at most this many events (the oldest first); replay again from the last one's time for more. */
const REPLAY_LIMIT = 10_000;

const listDeliveries = collectionRoute({
  path: `${PATH}/{id}/deliveries`,
  tags,
  summary: "List an endpoint's deliveries",
  permission: "webhooks:manage",
  collection: DELIVERY_COLLECTION,
  item: DeliverySchema,
  listed: "The deliveries, newest first; facet status",
  params: EndpointIdParams,
});

const retryDelivery = createRoute({
  method: "post",
  path: `${PATH}/{id}/deliveries/{deliveryId}/retry`,
  tags,
  summary: "Send a delivery again now (same evt_id)",
  middleware: [manage],
  request: { params: DeliveryIdParams, headers: z.object(idempotentWrite) },
  responses: { 202: jsonResponse(envelope(DeliverySchema), "The delivery, queued"), ...errorResponses },
});

const replay = createRoute({
  method: "post",
  path: `${PATH}/{id}/replay`,
  tags,
  summary: "Re-send every subscribed event recorded since a time (same evt_ids)",
  description: `At most ${REPLAY_LIMIT} events, the oldest first.`,
  middleware: [manage],
  request: { params: EndpointIdParams, body: jsonBody(ReplayBodySchema), headers: z.object(idempotentWrite) },
  responses: { 202: jsonResponse(z.object({ data: ReplaySchema }), "The number of events queued"), ...errorResponses },
});

export function deliveryRoutes(app: App, ctx: PluginContext) {
  const db = webhooksDb(ctx.db.platform);
  const idempotent = [manage, idempotentResponse(ctx.db.platform)];

  app.openapi(listDeliveries, async (c) => {
    const ofEndpoint = async () =>
      deliveriesOf(db, (await findEndpoint(db, c.get("principal").organizationId, c.req.valid("param").id)).id);
    return c.json(await collectionPage(c, DELIVERY_COLLECTION, ofEndpoint, (rows) => rows.map(toDelivery)), 200);
  });

  app.openapi({ ...retryDelivery, middleware: idempotent }, async (c) => {
    const { id, deliveryId } = c.req.valid("param");
    const endpoint = await findEndpoint(db, c.get("principal").organizationId, id);
    const row = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("webhookDeliveries")
        .set({ status: "pending", nextAttemptAt: new Date() })
        .where("id", "=", deliveryId)
        .where("endpointId", "=", endpoint.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated)
        throw new ApiError("WEBHOOK_DELIVERY_NOT_FOUND", {
          message: `No delivery ${deliveryId}`,
          details: { deliveryId },
        });
      await wakeEndpoints(trx, [endpoint.id]);
      return updated;
    });
    const delivery = await deliveriesOf(db, endpoint.id).where("id", "=", row.id).executeTakeFirstOrThrow();
    return c.json(single(c, toDelivery(delivery)), 202);
  });

  app.openapi({ ...replay, middleware: idempotent }, async (c) => {
    const endpoint = await findEndpoint(db, c.get("principal").organizationId, c.req.valid("param").id);
    const { since } = c.req.valid("json");
    const replayed = await db.transaction().execute(async (trx) => {
      const recorded = await trx
        .selectFrom("webhookOutbox")
        .select(["id", "type", "lifecycleState", "chainId"])
        .select(sql<string>`payload::text`.as("payloadJson"))
        .select(sql<string>`related::text`.as("relatedJson"))
        .where("organizationId", "=", endpoint.organizationId)
        .where("type", "in", endpoint.eventTypes.length ? endpoint.eventTypes : [""])
        .where("createdAt", ">=", since)
        .orderBy("createdAt")
        .orderBy("id")
        .limit(REPLAY_LIMIT)
        .execute();
      const events = recorded.filter((e) => passesFilters({ ...e, filters: endpoint.filters }));
      if (events.length === 0) return 0;
      const now = new Date();
      const queued = await trx
        .insertInto("webhookDeliveries")
        .values(
          events.map((e) => ({
            id: uuidv7(),
            endpointId: endpoint.id,
            evtId: e.id,
            type: e.type,
            lifecycleState: e.lifecycleState,
            nextAttemptAt: now,
          })),
        )
        // An event delivered before is queued again on its own delivery row (the same evt_id).
        .onConflict((oc) => oc.columns(["endpointId", "evtId"]).doUpdateSet({ status: "pending", nextAttemptAt: now }))
        .returning("id")
        .execute();
      await wakeEndpoints(trx, [endpoint.id]);
      return queued.length;
    });
    return c.json({ data: { replayed } }, 202);
  });
}
