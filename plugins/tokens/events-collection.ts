// The token event log as read models serve it: the collection's fields, its source query and the event shape.
import { z } from "@hono/zod-openapi";
import { type InferResult, sql } from "kysely";
import { decodeValues, INVOLVED_SEPARATOR } from "../../domain/activity/event-columns.ts";
import { ARRAY_MEMBERSHIP_OPERATORS, arrayMembership, defineCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { isoFromSeconds } from "../../host/db/ledger-types.ts";

const lowercase = (value: string) => value.toLowerCase();

export const TOKEN_EVENT_COLLECTION = defineCollection({
  fields: {
    eventName: { column: "eventName", type: "text", sortable: true, facet: true },
    sender: { column: "sender", type: "text", normalize: lowercase },
    emitter: { column: "emitter", type: "text", normalize: lowercase },
    transactionHash: { column: "transactionHash", type: "text", normalize: lowercase },
    /** An account the event concerns (recipient, holder, frozen address, ...). */
    involved: {
      column: "involved",
      type: "text",
      normalize: lowercase,
      filter: { operators: ARRAY_MEMBERSHIP_OPERATORS },
      condition: arrayMembership("involved"),
    },
    blockNumber: { column: "blockNumber", type: "bigint", sortable: true },
    blockTimestamp: { column: "blockTime", type: "timestamp", sortable: true },
    /** The same instant as blockTimestamp (an event is created when its block is). */
    createdAt: { column: "blockTime", type: "timestamp", sortable: true },
  },
  search: ["eventName", "transactionHash"],
  defaultSort: "-blockTimestamp",
  // Ponder's event ids are checkpoints: ordered like the chain (block, transaction, log).
  tiebreaker: "id",
});

/**
 * Every token event (the activity events a token's log holds) as the log names its columns: `id` is Ponder's event id
 * (chain order), `token` the token whose log it is, `blockTime` its block time as a timestamp; for the caller to scope
 * with `where`.
 */
export function tokenEvents(ledger: LedgerDb) {
  return ledger
    .selectFrom((db) =>
      db
        .selectFrom("activityEvent")
        .select(["ordinal as id", "eventName", "emitter", "sender", "values", "transactionHash"])
        // An array again, for the involved filter (the index keeps it as text: domain/activity/event-columns.ts).
        .select(sql<`0x${string}`[]>`string_to_array(involved, ${sql.lit(INVOLVED_SEPARATOR)})`.as("involved"))
        .select(["blockNumber", "blockTimestamp", "logIndex"])
        .select((eb) => eb.ref("logToken").$notNull().as("token"))
        .select(sql<Date>`to_timestamp(block_timestamp)`.as("blockTime"))
        .where("logToken", "is not", null)
        .as("e"),
    )
    .selectAll();
}

/** A row of tokenEvents. */
export type TokenEventRow = InferResult<ReturnType<typeof tokenEvents>>[number];

const IdRef = z.object({ id: z.string() });

export const TokenEventSchema = z
  .object({
    id: z.string(),
    eventName: z.string(),
    blockNumber: z.string(),
    blockTimestamp: z.string(),
    txIndex: z.string().openapi({ description: "The log's index in its block" }),
    transactionHash: z.string(),
    emitter: IdRef,
    sender: IdRef,
    involved: z.array(IdRef),
    values: z.array(z.object({ id: z.string(), name: z.string(), value: z.string() })),
  })
  .openapi("TokenEvent");
export type TokenEvent = z.infer<typeof TokenEventSchema>;

/** Decoded parameters keep their raw form: amounts are raw integers (apply the token's decimals). */
export function toTokenEvent(row: TokenEventRow): TokenEvent {
  return {
    id: row.id,
    eventName: row.eventName,
    blockNumber: row.blockNumber.toString(),
    blockTimestamp: isoFromSeconds(row.blockTimestamp),
    txIndex: String(row.logIndex),
    transactionHash: row.transactionHash,
    emitter: { id: row.emitter },
    sender: { id: row.sender },
    involved: row.involved.map((id) => ({ id })),
    values: decodeValues(row.values).map((v, i) => ({ id: `${row.id}-${i}`, name: v.name, value: v.value })),
  };
}
