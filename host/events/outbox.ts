// ctx.emit: records a webhook event in platform.webhook_outbox, in the caller's transaction when it gives one (the
// event exists exactly when the write it tells of commits). Delivery reads the outbox; it is not done here.
import { type Insertable, type Kysely, type Selectable, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { PlatformDb } from "../db/database.ts";
import type { PlatformTables, WebhookOutboxTable } from "../db/platform-types.ts";
import { statementChunks } from "../db/statement-chunks.ts";
import type { PluginContext, WebhookEventType } from "../plugin.ts";

export type Emit = PluginContext["emit"];

export function createEmitter(db: PlatformDb, events: ReadonlyMap<string, WebhookEventType>): Emit {
  return async (type, payload, options) => {
    const event = events.get(type);
    if (!event) throw new Error(`The webhook event type "${type}" is declared by no plugin (webhookEvents)`);
    const parsed = event.payload.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`The payload of "${type}" does not match its schema: ${issue?.path.join(".")} ${issue?.message}`);
    }
    // A plugin's widened transaction holds the core tables too.
    const target = (options.trx as Kysely<PlatformTables> | undefined) ?? db;
    await target
      .insertInto("webhookOutbox")
      .values({
        id: `evt_${uuidv7()}`,
        organizationId: options.organizationId,
        type,
        payload: JSON.stringify(parsed.data),
        related: JSON.stringify(options.related ?? {}),
        idempotencyKey: options.idempotencyKey ?? null,
        dedupeKey: options.idempotencyKey ? `${type}:${options.idempotencyKey}` : null,
        lifecycleState: event.lifecycle ?? "final",
      })
      // A repeat of a key records nothing new (rows without a key never conflict).
      .onConflict((oc) => oc.columns(["organizationId", "dedupeKey"]).doNothing())
      .execute();
  };
}

/**
 * Outbox rows as recorded: `payload` and `related` are read as JSON text and parsed here, because the pool's
 * CamelCasePlugin would rename the keys of JSON objects it returns (`idxr_token` → `idxrToken`).
 */
export function selectOutbox(db: Kysely<PlatformTables>) {
  return db
    .selectFrom("webhookOutbox")
    .select([
      "id",
      "organizationId",
      "type",
      "idempotencyKey",
      "dedupeKey",
      "lifecycleState",
      "retractedEvtId",
      "chainId",
      "transactionHash",
      "requestId",
      "previousEvtId",
      "createdAt",
    ])
    .select(sql<string>`payload::text`.as("payloadJson"))
    .select(sql<string>`related::text`.as("relatedJson"));
}

/** Records events, each once: a row whose (organisation, dedupeKey) is recorded already is left out. */
export async function recordEventsOnce(db: Kysely<PlatformTables>, rows: Insertable<WebhookOutboxTable>[]) {
  for (const chunk of statementChunks(rows)) {
    await db
      .insertInto("webhookOutbox")
      .values(chunk)
      .onConflict((oc) => oc.columns(["organizationId", "dedupeKey"]).doNothing())
      .execute();
  }
}

type OutboxRow = Awaited<ReturnType<ReturnType<typeof selectOutbox>["execute"]>>[number];

/**
 * The event that follows a recorded one in its lifecycle (`retracted` or `recalled`): the same fact under a new id,
 * naming the event it follows; `dedupeKey` keeps it recorded once.
 */
export function successorEvent(
  { payloadJson, relatedJson, id, createdAt: _, ...event }: OutboxRow,
  lifecycleState: "retracted" | "recalled",
) {
  const retracts = lifecycleState === "retracted";
  return {
    ...event,
    id: `evt_${uuidv7()}`,
    payload: payloadJson,
    related: relatedJson,
    lifecycleState,
    retractedEvtId: retracts ? id : null,
    previousEvtId: id,
    dedupeKey: `${retracts ? "retracts" : "recalls"}:${id}`,
  };
}

export type OutboxEvent = Omit<Selectable<WebhookOutboxTable>, "payload" | "related" | "blockNumber" | "blockHash"> & {
  payload: unknown;
  related: Record<string, string>;
};

export function parseOutboxRow<R extends { payloadJson: string; relatedJson: string }>(row: R) {
  const { payloadJson, relatedJson, ...rest } = row;
  return {
    ...rest,
    payload: JSON.parse(payloadJson) as unknown,
    related: JSON.parse(relatedJson) as Record<string, string>,
  };
}
