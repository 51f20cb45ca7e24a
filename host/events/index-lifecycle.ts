// Webhook events read from the index, never from a Ponder handler: each tick reads what the index holds now (one
// repeatable-read snapshot of its views and its checkpoint) and tells subscribers what changed. An observation
// inside the reorg depth is told as provisional (when its type is) and tracked; a reorg that removes it is told as
// a `retracted` event naming the one it retracts; once deeper than the depth it is settled, and a `final` type is
// told once (its fact's key folds repeats, so a transaction re-included in another block is final once).
import { isDeepStrictEqual } from "node:util";
import { type Kysely, sql, type Transaction } from "kysely";
import type pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { indexVersionReader } from "../cache/indexed-reads.ts";
import { chainViewsSchema } from "../db/chain-views.ts";
import type { PlatformDb } from "../db/database.ts";
import type { LedgerTables } from "../db/ledger-types.ts";
import { databaseOutage } from "../db/outage.ts";
import type { PlatformTables } from "../db/platform-types.ts";
import { readInChunks, statementChunks } from "../db/statement-chunks.ts";
import type { Logger } from "../logger.ts";
import type { IndexedObservation, WebhookEventType } from "../plugin.ts";
import { selectOutbox } from "./outbox.ts";

export interface IndexLifecycleOptions {
  db: PlatformDb;
  /** The pool under `db`: the index's version is read as the read cache reads it (host/cache/indexed-reads.ts). */
  pool: pg.Pool;
  viewsSchema: string;
  chainId: number;
  depth: number;
  events: ReadonlyMap<string, WebhookEventType>;
  logger: Logger;
}

type Trx = Transaction<PlatformTables>;
type Sourced = [string, WebhookEventType & Required<Pick<WebhookEventType, "fromIndex">>];

/** Ticks of all processes are serialised per chain (the first number names this lock among the platform's). */
const LOCK_CLASS = 1_563_201;

/** The newest block the index has processed on the chain (Ponder's checkpoint: block number at chars 27-42). */
async function indexedHead(trx: Trx, viewsSchema: string, chainId: number): Promise<bigint | undefined> {
  const { rows } = await sql<{ block: string }>`
    select substring(latest_checkpoint from 27 for 16) as block from ${sql.id(viewsSchema, "_ponder_checkpoint")}
    where chain_id = ${chainId}`.execute(trx);
  return rows[0] ? BigInt(rows[0].block) : undefined;
}

interface Origin {
  organizationId: string;
  idempotencyKey: string | null;
  requestId: string | null;
}

/** Each observation's organisation (its system's) and the API request that sent its transaction, if one did. */
async function originsOf(trx: Trx, chainId: number, observations: IndexedObservation[]) {
  const systems = [...new Set(observations.map((o) => o.systemAddress.toLowerCase()))];
  const hashes = [...new Set(observations.map((o) => o.transactionHash.toLowerCase()))];
  const owners = await readInChunks(systems, (chunk) =>
    trx
      .selectFrom("organizationChains")
      .select(["organizationId", "systemAddress"])
      .where("chainId", "=", chainId)
      .where("systemAddress", "in", chunk)
      .execute(),
  );
  const requests = await readInChunks(hashes, (chunk) =>
    trx
      .selectFrom("transactionRequests")
      .select(["id", "organizationId", "idempotencyKey", "transactionHash"])
      .where("chainId", "=", chainId)
      .where("transactionHash", "in", chunk)
      .execute(),
  );
  const ownerOf = new Map(owners.map((o) => [o.systemAddress?.toLowerCase(), o.organizationId]));
  const requestOf = new Map(requests.map((r) => [r.transactionHash?.toLowerCase(), r]));
  return (o: IndexedObservation): Origin | undefined => {
    const organizationId = ownerOf.get(o.systemAddress.toLowerCase());
    if (!organizationId) return undefined; // a system no organisation of this platform owns
    const request = requestOf.get(o.transactionHash.toLowerCase());
    const own = request?.organizationId === organizationId ? request : undefined;
    return { organizationId, idempotencyKey: own?.idempotencyKey ?? null, requestId: own?.id ?? null };
  };
}

function outboxRow(chainId: number, type: string, o: IndexedObservation, origin: Origin, lifecycleState: string) {
  return {
    id: `evt_${uuidv7()}`,
    organizationId: origin.organizationId,
    type,
    payload: JSON.stringify(o.payload),
    related: JSON.stringify(o.related),
    idempotencyKey: origin.idempotencyKey,
    requestId: origin.requestId,
    chainId,
    transactionHash: o.transactionHash.toLowerCase(),
    lifecycleState,
    // A final fact is told once per chain and key; provisional ones are tracked in index_observations instead.
    dedupeKey: lifecycleState === "final" ? `${type}:${chainId}:${o.key}` : null,
  };
}

/** Provisional types: tell new observations, retract vanished or changed ones, settle those past the depth. */
async function tellProvisional(trx: Trx, opts: IndexLifecycleOptions, ledger: Kysely<LedgerTables>, range: Range) {
  const { chainId } = opts;
  for (const [type, event] of sourcedEvents(opts.events, "provisional")) {
    const observed = await event.fromIndex.read(ledger, { chainId, fromBlock: range.from, toBlock: range.head });
    const tracked = await trx
      .selectFrom("indexObservations")
      .select(["key", "blockNumber", "evtId"])
      // As text: the pool's CamelCasePlugin would rename a payload's keys.
      .select(sql<string>`payload::text`.as("payloadJson"))
      .where("chainId", "=", chainId)
      .where("type", "=", type)
      .execute();
    const trackedByKey = new Map(tracked.map((t) => [t.key, t]));
    const observedByKey = new Map(observed.map((o) => [o.key, o]));
    const origin = await originsOf(trx, chainId, observed);

    const retract: typeof tracked = [];
    for (const t of tracked) {
      const now = observedByKey.get(t.key);
      if (!now) {
        // Blocks above the head were reverted and not indexed again yet: wait for the index to decide.
        if (t.blockNumber <= range.head) retract.push(t);
        // jsonb keeps its own key order: compare values, not texts.
      } else if (!isDeepStrictEqual(now.payload, JSON.parse(t.payloadJson))) retract.push(t);
    }
    await retractEvents(trx, chainId, type, retract);

    const retracted = new Set(retract.map((t) => t.key));
    const fresh = observed.filter((o) => (!trackedByKey.has(o.key) || retracted.has(o.key)) && origin(o));
    if (fresh.length > 0) {
      const rows = fresh.map((o) => outboxRow(chainId, type, o, origin(o) as Origin, "provisional"));
      for (const chunk of statementChunks(rows)) await trx.insertInto("webhookOutbox").values(chunk).execute();
      const observations = fresh.map((o, i) => ({
        chainId,
        type,
        key: o.key,
        organizationId: rows[i].organizationId,
        blockNumber: o.blockNumber,
        payload: JSON.stringify(o.payload),
        evtId: rows[i].id,
      }));
      for (const chunk of statementChunks(observations)) {
        await trx.insertInto("indexObservations").values(chunk).execute();
      }
    }
    // Moved within the depth (same fact, same payload): follow it to its new block.
    for (const o of observed) {
      const t = trackedByKey.get(o.key);
      if (t && !retracted.has(o.key) && t.blockNumber !== o.blockNumber) {
        await trx
          .updateTable("indexObservations")
          .set({ blockNumber: o.blockNumber })
          .where("chainId", "=", chainId)
          .where("type", "=", type)
          .where("key", "=", o.key)
          .execute();
      }
    }
    // Past the depth: the provisional event stands for good.
    await trx
      .deleteFrom("indexObservations")
      .where("chainId", "=", chainId)
      .where("type", "=", type)
      .where("blockNumber", "<=", range.finalized)
      .execute();
  }
}

/** A `retracted` event for each tracked observation, naming the provisional event it retracts; tracking ends. */
async function retractEvents(trx: Trx, chainId: number, type: string, retract: { key: string; evtId: string }[]) {
  for (const chunk of statementChunks(retract)) {
    const told = await selectOutbox(trx)
      .where(
        "id",
        "in",
        chunk.map((t) => t.evtId),
      )
      .execute();
    if (told.length > 0) {
      await trx
        .insertInto("webhookOutbox")
        .values(
          told.map(({ payloadJson, relatedJson, id, createdAt: _, ...e }) => ({
            ...e,
            id: `evt_${uuidv7()}`,
            payload: payloadJson,
            related: relatedJson,
            lifecycleState: "retracted",
            retractedEvtId: id,
            dedupeKey: `retracts:${id}`,
          })),
        )
        .execute();
    }
    await trx
      .deleteFrom("indexObservations")
      .where("chainId", "=", chainId)
      .where("type", "=", type)
      .where(
        "key",
        "in",
        chunk.map((t) => t.key),
      )
      .execute();
  }
}

/** Final types: every observation of the blocks that just passed the depth, once. */
async function tellFinal(trx: Trx, opts: IndexLifecycleOptions, ledger: Kysely<LedgerTables>, range: Range) {
  if (range.finalized < range.from) return;
  const { chainId } = opts;
  for (const [type, event] of sourcedEvents(opts.events, "final")) {
    const observed = await event.fromIndex.read(ledger, { chainId, fromBlock: range.from, toBlock: range.finalized });
    const origin = await originsOf(trx, chainId, observed);
    const rows = observed.flatMap((o) => {
      const from = origin(o);
      return from ? [outboxRow(chainId, type, o, from, "final")] : [];
    });
    for (const chunk of statementChunks(rows)) {
      await trx
        .insertInto("webhookOutbox")
        .values(chunk)
        .onConflict((oc) => oc.columns(["organizationId", "dedupeKey"]).doNothing())
        .execute();
    }
  }
}

function sourcedEvents(events: ReadonlyMap<string, WebhookEventType>, lifecycle: "provisional" | "final") {
  return [...events].filter(
    (entry): entry is Sourced => !!entry[1].fromIndex && (entry[1].lifecycle ?? "final") === lifecycle,
  );
}

interface Range {
  /** The first block not yet settled. */
  from: bigint;
  /** The index's head. */
  head: bigint;
  /** Blocks up to here are past the reorg depth. */
  finalized: bigint;
}

/** One tick: reads the index as it is now and records the events it tells. Exported for tests. */
export async function settleIndex(opts: IndexLifecycleOptions): Promise<void> {
  await opts.db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`
        select pg_try_advisory_xact_lock(${LOCK_CLASS}, ${opts.chainId}) as locked`.execute(trx);
      if (!rows[0]?.locked) return; // another process is settling this chain
      const head = await indexedHead(trx, opts.viewsSchema, opts.chainId);
      if (head === undefined) return;
      const cursor = await trx
        .selectFrom("indexLifecycleCursors")
        .select("finalizedThrough")
        .where("chainId", "=", opts.chainId)
        .executeTakeFirst();
      const depth = BigInt(opts.depth);
      // A chain seen for the first time: what is already past the depth is history, not news.
      const settled = cursor?.finalizedThrough ?? (head > depth ? head - depth : 0n);
      const finalized = head - depth > settled ? head - depth : settled;
      const range: Range = { from: settled + 1n, head, finalized };
      // The chain's own views: the same addresses may hold other rows on another chain.
      const ledger = (trx as unknown as Kysely<LedgerTables>).withSchema(
        chainViewsSchema(opts.viewsSchema, opts.chainId),
      );
      await tellProvisional(trx, opts, ledger, range);
      await tellFinal(trx, opts, ledger, range);
      await trx
        .insertInto("indexLifecycleCursors")
        .values({ chainId: opts.chainId, finalizedThrough: finalized })
        .onConflict((oc) => oc.column("chainId").doUpdateSet({ finalizedThrough: finalized, updatedAt: new Date() }))
        .execute();
    });
}

/** What the continuous settling needs: the options of every tick, for each served chain with its finality depth. */
export type IndexLifecycleChains = Omit<IndexLifecycleOptions, "chainId" | "depth"> & {
  chains: { chainId: number; depth: number }[];
};

/** With the index's version unchanged, a tick all the same after this long: a safety net, not the way news comes. */
const QUIET_TICK_MS = 30_000;

/**
 * Settles the index continuously, every served chain: a tick whenever the index's version moves (or a tick failed),
 * and every QUIET_TICK_MS besides. Not every second: a tick reads every observation inside the reorg depth, and with
 * big blocks (a thousand mints each) re-reading an unchanged window kept the host busy (~60 % of a core) for nothing.
 * Ticks never overlap; a chain's failed tick is logged and retried without holding the others up. While the database
 * is down the loop backs off (up to 10 s between tries) and logs the outage once, not every tick.
 */
export function startIndexLifecycle(opts: IndexLifecycleChains, pollMs = 100): { stop(): Promise<void> } {
  if (sourcedEvents(opts.events, "provisional").length + sourcedEvents(opts.events, "final").length === 0) {
    return { stop: async () => {} };
  }
  let stopped = false;
  const readVersion = indexVersionReader(opts.pool, opts.viewsSchema);
  let lastVersion: string | undefined;
  let lastTick = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const outage = databaseOutage(opts.logger, "index lifecycle");
  let wait = pollMs;
  const failed = (error: unknown) => {
    const backoff = outage.failed(error);
    if (backoff !== undefined) {
      wait = Math.max(wait, backoff);
      return;
    }
    // The index's views may not exist yet (first start), or the database restarts: try again next round. A
    // serialization failure (40001: the snapshot's writes met a row a concurrent fan-out changed) rolled the tick
    // back whole; repeatable read expects the retry the next round makes.
    if ((error as { code?: string }).code === "40001")
      opts.logger.debug("index lifecycle tick retried", { error: String(error) });
    else if (!String(error).includes("does not exist"))
      opts.logger.warn("index lifecycle tick failed", { error: String(error) });
  };
  const loop = async () => {
    wait = pollMs;
    try {
      const { checkpoints, stamp } = await readVersion();
      const version = `${checkpoints}/${stamp}`; // the stamp also moves when a replacement block repeats a checkpoint
      if (checkpoints !== "" && (version !== lastVersion || Date.now() - lastTick >= QUIET_TICK_MS)) {
        lastTick = Date.now();
        let settled = true;
        for (const chain of opts.chains) {
          try {
            await settleIndex({ ...opts, ...chain });
          } catch (error) {
            settled = false;
            failed(error);
          }
        }
        if (settled) lastVersion = version;
      }
      if (wait === pollMs) outage.succeeded();
    } catch (error) {
      failed(error);
    }
    if (!stopped) timer = setTimeout(() => (running = loop()), wait);
  };
  running = loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
