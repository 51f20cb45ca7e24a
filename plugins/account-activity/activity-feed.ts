// The participant and account activity feeds: one collection over the index's activity events, scoped to the
// organisation's system and to the events linked to a set of addresses by the feed's matching rule.
import { z } from "@hono/zod-openapi";
import { sql } from "kysely";
import { CHAIN_SCOPE } from "../../domain/activity/chain-scope.ts";
import { decodeInvolved, decodeValues } from "../../domain/activity/event-columns.ts";
import { defineCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex, isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";

/**
 * participant: sender, account, emitter, token, involved or meta-transaction signer; account: ... or the system (so
 * the system's own account feed is every event of the system).
 */
export type ActivityFeed = "participant" | "account";

export interface FeedScope {
  system: string;
  /** The addresses whose events the feed shows (a participant's wallets, or one account). */
  addresses: string[];
  feed: ActivityFeed;
}

export const ACTIVITY_COLLECTION = defineCollection({
  fields: {
    eventName: {
      column: "e.eventName",
      type: "text",
      facet: true,
      filter: { operators: ["eq", "ne", "inArray", "notInArray"] },
    },
    transactionHash: { column: "e.transactionHash", type: "text", filter: false },
    blockTimestamp: { column: "e.blockTimestamp", type: "bigint", sortable: true, filter: false },
    blockNumber: { column: "e.blockNumber", type: "bigint", sortable: true, filter: false },
  },
  search: ["eventName", "transactionHash"],
  defaultSort: "-blockTimestamp",
  tiebreaker: "e.ordinal",
  totalFromFacet: "eventName",
});

/**
 * The feed's events as their sort, filter and facet columns (relation `e`, `id` being the event's), unpaged and
 * unordered (the collection engine adds those); the page's events are read by `eventsOfPage`. Not joined to the
 * events here: PostgreSQL joined every event of the feed before sorting (a union is planned as a subquery, so no
 * index order reaches the outer sort), 10 ms for a feed of 1,000 against 3 ms for the page alone plus 50 events.
 * `addresses` must not be empty.
 */
export function feedEvents(db: LedgerDb, scope: FeedScope) {
  const addresses = scope.addresses.map(indexedHex);
  // One link per address and event: with one address each event comes once; with several it may come per address,
  // and the union with the other branches deduplicates it.
  const linksIn = (system: string) =>
    db
      .selectFrom("activityLink as l")
      .select(["l.eventId as id", "l.ordinal", "l.eventName", "l.blockNumber", "l.blockTimestamp", "l.transactionHash"])
      .where("l.address", "in", addresses)
      .where("l.system", "=", indexedHex(system))
      .where(scope.feed === "participant" ? "l.forParticipant" : "l.forAccount", "=", true);
  // The system's account feed is every event of the system: read from the events by system, not from links (the
  // index links the system only where an event itself names it).
  const system = indexedHex(scope.system);
  const everyEventOfSystem = scope.feed === "account" && addresses.includes(system);
  const events = (inScope: string) =>
    db
      .selectFrom("activityEvent as a")
      .select(["a.id", "a.ordinal", "a.eventName", "a.blockNumber", "a.blockTimestamp", "a.transactionHash"])
      .where("a.system", "=", indexedHex(inScope));
  const asLinks = (query: ReturnType<typeof events>) => query as unknown as ReturnType<typeof linksIn>; // same columns
  // Nor is a token linked to the events of its own log, nor an address to the events it sent or whose party it is
  // (the index reads those by log_token, sender and party): those come from the events. An event both sent by and in
  // the log of the feed's addresses comes by its log only.
  const ownLogs = (inScope: string) => asLinks(events(inScope).where("a.logToken", "in", addresses));
  const sent = (inScope: string) =>
    asLinks(
      events(inScope)
        .where("a.sender", "in", addresses)
        .where((eb) => eb.or([eb("a.logToken", "is", null), eb("a.logToken", "not in", addresses)])),
    );
  const partyTo = (inScope: string) => asLinks(events(inScope).where("a.party", "in", addresses));
  // With one address each event comes by one branch only (the index keeps the party, the sender, the log's token and
  // the linked addresses of an event distinct); with several by a branch of each: unions deduplicate.
  const several = scope.addresses.length > 1;
  const linkedOrSent = (inScope: string) =>
    several
      ? linksIn(inScope).union(partyTo(inScope)).union(sent(inScope))
      : linksIn(inScope).unionAll(partyTo(inScope)).unionAll(sent(inScope));
  const inSystem = everyEventOfSystem
    ? asLinks(events(system))
    : several
      ? linkedOrSent(system).union(ownLogs(system))
      : linkedOrSent(system).unionAll(ownLogs(system));
  // The system's events and those of no system (user operations, smart wallets): unions of index ranges, which
  // PostgreSQL merges in the index's order (an IN on the system column would read and sort the whole feed).
  return db.selectFrom(inSystem.unionAll(linkedOrSent(CHAIN_SCOPE)).as("e")).selectAll("e");
}

/** A page's events in the page's order (an event a reorg removed since the page was read is left out). */
export async function eventsOfPage(db: LedgerDb, page: { id: string }[]): Promise<LedgerTables["activityEvent"][]> {
  if (page.length === 0) return [];
  const events = await db
    .selectFrom("activityEvent")
    .selectAll()
    .where(
      "id",
      "in",
      page.map((row) => row.id),
    )
    .execute();
  const byId = new Map(events.map((event) => [event.id, event]));
  return page.flatMap((row) => byId.get(row.id) ?? []);
}

/** Per bucket start (unix seconds), how many of the feed's events fall in [from, to]. */
export async function feedCounts(
  db: LedgerDb,
  scope: FeedScope,
  window: { from: number; to: number; step: number },
): Promise<Map<number, number>> {
  // The step inlined (3600 or 86400, not caller input): select and group by must be the same expression.
  const bucket = sql<string>`floor(e.block_timestamp / ${sql.lit(window.step)}) * ${sql.lit(window.step)}`;
  const rows = await feedEvents(db, scope)
    .clearSelect()
    .select([bucket.as("bucket"), sql<string>`count(*)`.as("count")])
    .where("e.blockTimestamp", ">=", BigInt(window.from))
    .where("e.blockTimestamp", "<=", BigInt(window.to))
    .groupBy(bucket)
    .execute();
  return new Map(rows.map((row) => [Number(row.bucket), Number(row.count)]));
}

const Ref = z.object({ id: z.string() }).openapi("ActivityAddressRef");

export const ActivityEventSchema = z
  .object({
    id: z.string(),
    eventName: z.string().openapi({ example: "TransferCompleted" }),
    blockNumber: z.string(),
    blockTimestamp: z.string().openapi({ format: "date-time" }),
    txIndex: z.string().openapi({ description: "The log index within the transaction" }),
    transactionHash: z.string(),
    emitter: Ref.openapi({ description: "The emitting contract" }),
    sender: Ref.openapi({ description: "The contract-level trigger" }),
    displaySender: Ref.openapi({ description: "The signing address that authorised the operation" }),
    metaTxSigner: Ref.nullable().openapi({ description: "null for directly submitted transactions" }),
    relayerKind: z.enum(["forwarder", "user-operation"]).nullable(),
    relayer: Ref.nullable(),
    userOpHash: z.string().nullable().openapi({ description: "Only for account-abstraction operations" }),
    paymaster: Ref.nullable().openapi({ description: "The gas sponsor, when one paid" }),
    actualGasCost: z.string().nullable().openapi({
      description: "Wei. Participant feed: sponsored operations only; account feed: every user operation",
    }),
    involved: z.array(Ref),
    values: z.array(z.object({ id: z.string(), name: z.string(), value: z.string() })),
  })
  .openapi("ActivityEvent");
export type ActivityEvent = z.infer<typeof ActivityEventSchema>;

const ref = (address: string) => ({ id: address });
const refOrNull = (address: string | null) => (address === null ? null : ref(address));

export function toActivityEvent(row: LedgerTables["activityEvent"], feed: ActivityFeed): ActivityEvent {
  const isUserOperation = row.relayerKind === "user-operation";
  const showGasCost = feed === "account" ? isUserOperation : isUserOperation && row.paymaster !== null;
  return {
    id: row.id,
    eventName: row.eventName,
    blockNumber: String(row.blockNumber),
    blockTimestamp: isoFromSeconds(row.blockTimestamp),
    txIndex: String(row.txIndex),
    transactionHash: row.transactionHash,
    emitter: ref(row.emitter),
    sender: ref(row.sender),
    displaySender: ref(row.displaySender),
    metaTxSigner: refOrNull(row.metaTxSigner),
    relayerKind: row.relayerKind as ActivityEvent["relayerKind"],
    relayer: refOrNull(row.relayer),
    userOpHash: row.userOpHash,
    paymaster: refOrNull(row.paymaster),
    actualGasCost: showGasCost && row.actualGasCost !== null ? String(row.actualGasCost) : null,
    involved: decodeInvolved(row.involved).map(ref),
    values: decodeValues(row.values).map((value) => ({ id: `${row.id}-${value.name}`, ...value })),
  };
}
