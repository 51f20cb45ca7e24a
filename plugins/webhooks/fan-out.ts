// The fan-out task: every queued outbox event (platform.webhook_fan_out_queue, filled by a trigger in the emitting
// transaction) becomes one delivery per enabled endpoint of its organisation subscribed to its type whose resource
// filters it passes (filters.ts). Woken by the
// trigger's job and by the sweep (sweep.ts); concurrent runs take disjoint events (skip locked).
import { sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask, NoPayload } from "../../host/worker/define-task.ts";
import { wakeEndpoints } from "./enqueue.ts";
import { passesFilters } from "./filters.ts";
import { type WebhooksDb, webhooksDb } from "./tables.ts";

const BATCH = 500;

/** Fans out every queued event, a batch per transaction. */
export async function fanOut(db: WebhooksDb): Promise<void> {
  const batch = () =>
    db.transaction().execute(async (trx) => {
      const taken = await trx
        .deleteFrom("webhookFanOutQueue")
        .where("evtId", "in", (eb) =>
          eb.selectFrom("webhookFanOutQueue").select("evtId").limit(BATCH).forUpdate().skipLocked(),
        )
        .returning("evtId")
        .execute();
      if (taken.length === 0) return 0;
      const subscribed = await trx
        .selectFrom("webhookOutbox as o")
        .innerJoin("webhookEndpoints as e", "e.organizationId", "o.organizationId")
        .select(["o.id as evtId", "o.type", "o.lifecycleState", "o.chainId", "e.id as endpointId", "e.filters"])
        // As text: the pool's CamelCasePlugin would rename a payload's keys.
        .select(sql<string>`o.payload::text`.as("payloadJson"))
        .select(sql<string>`o.related::text`.as("relatedJson"))
        .where(
          "o.id",
          "in",
          taken.map((t) => t.evtId),
        )
        .where("e.disabled", "=", false)
        .where(sql<boolean>`${sql.ref("e.eventTypes")} ? ${sql.ref("o.type")}`)
        .execute();
      const pairs = subscribed.filter(passesFilters);
      if (pairs.length > 0) {
        const created = await trx
          .insertInto("webhookDeliveries")
          .values(
            pairs.map((p) => ({
              id: uuidv7(),
              endpointId: p.endpointId,
              evtId: p.evtId,
              type: p.type,
              lifecycleState: p.lifecycleState,
            })),
          )
          .onConflict((oc) => oc.columns(["endpointId", "evtId"]).doNothing())
          .returning(["endpointId"])
          .execute();
        await wakeEndpoints(
          trx,
          created.map((d) => d.endpointId),
        );
      }
      return taken.length;
    });
  while ((await batch()) === BATCH) {}
}

export function fanOutTask(ctx: PluginContext) {
  const db = webhooksDb(ctx.db.platform);
  return defineTask(NoPayload, () => fanOut(db));
}
