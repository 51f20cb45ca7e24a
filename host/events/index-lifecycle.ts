// Webhook events read from the index, never from a Ponder handler: each tick reads what the index holds now (one
// repeatable-read snapshot of its views and its checkpoint) and tells subscribers what changed. An observation
// inside the reorg depth is told as provisional (when its type is, following the write's `pending` event) and
// tracked; a reorg that removes it is told as a `retracted` event naming the one it retracts; once deeper than the
// depth it is told `final` (a provisional type's and a final type's alike; its fact's key folds repeats, so a
// transaction re-included in another block is final once), and a reorg deeper than the depth that replaces its
// block later is told as `recalled` (recalls.ts). The rules: lifecycle-rules.ts.
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
import { matchPending, type PendingCandidate } from "./lifecycle-rules.ts";
import { recordEventsOnce, selectOutbox, successorEvent } from "./outbox.ts";
import { type BlockHashes, hashesOf, newestFinalBlockReplaced, recallReplaced, recordFinalBlocks } from "./recalls.ts";

export interface IndexLifecycleOptions {
  db: PlatformDb;
  /** The pool under `db`: the index's version is read as the read cache reads it (host/cache/indexed-reads.ts). */
  pool: pg.Pool;
  viewsSchema: string;
  chainId: number;
  depth: number;
  events: ReadonlyMap<string, WebhookEventType>;
  logger: Logger;
  /** The chain's block hashes: final events record theirs, and a deep reorg that replaces one recalls them. */
  blockHashes?: BlockHashes;
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

function outboxRow(
  chainId: number,
  type: string,
  o: IndexedObservation,
  origin: Origin,
  lifecycleState: string,
  final?: { blockHash: string | null },
) {
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
    ...(final ? { blockNumber: o.blockNumber, blockHash: final.blockHash } : {}),
  };
}

/** The pending events of the requests and type that nothing follows yet (told when the writes were broadcast). */
async function openPending(trx: Trx, type: string, requestIds: string[]): Promise<PendingCandidate[]> {
  const rows = await readInChunks([...new Set(requestIds)], (chunk) =>
    selectOutbox(trx)
      .where("type", "=", type)
      .where("lifecycleState", "=", "pending")
      .where("requestId", "in", chunk)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("webhookOutbox as f")
              .select("f.id")
              .whereRef("f.previousEvtId", "=", sql.ref("webhook_outbox.id")),
          ),
        ),
      )
      .orderBy("id")
      .execute(),
  );
  return rows.map((r) => ({ id: r.id, requestId: r.requestId as string, payload: JSON.parse(r.payloadJson) }));
}

/** Provisional types: tell new observations, retract vanished or changed ones, settle those past the depth. */
async function tellProvisional(
  trx: Trx,
  opts: IndexLifecycleOptions,
  ledger: Kysely<LedgerTables>,
  range: Range,
  recalls: ReadonlyMap<string, string>,
) {
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
    const retractions = await retractEvents(trx, chainId, type, retract);

    const retracted = new Set(retract.map((t) => t.key));
    const fresh = observed.filter((o) => (!trackedByKey.has(o.key) || retracted.has(o.key)) && origin(o));
    if (fresh.length > 0) {
      const requestIds = fresh.flatMap((o) => (origin(o)?.requestId ? [origin(o)?.requestId as string] : []));
      const pending = requestIds.length > 0 ? await openPending(trx, type, requestIds) : [];
      const taken = new Set<string>();
      // Each follows the state before it: its retraction (told again after a reorg), else its write's pending event.
      const rows = fresh.map((o) => {
        const from = origin(o) as Origin;
        const previousEvtId =
          retractions.get(o.key) ??
          recalls.get(`${type}:${chainId}:${o.key}`) ??
          matchPending(pending, { requestId: from.requestId, payload: o.payload }, taken);
        return { ...outboxRow(chainId, type, o, from, "provisional"), previousEvtId };
      });
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
    // Past the depth: told final, following its provisional event; tracking ends.
    const settledObservations = await trx
      .selectFrom("indexObservations")
      .select(["key", "blockNumber", "evtId"])
      .where("chainId", "=", chainId)
      .where("type", "=", type)
      .where("blockNumber", "<=", range.finalized)
      .execute();
    await tellSettled(trx, opts, type, settledObservations);
    await trx
      .deleteFrom("indexObservations")
      .where("chainId", "=", chainId)
      .where("type", "=", type)
      .where("blockNumber", "<=", range.finalized)
      .execute();
  }
}

/** The `final` event of each provisional observation now past the depth, with its block's hash. */
async function tellSettled(
  trx: Trx,
  opts: IndexLifecycleOptions,
  type: string,
  settled: { key: string; blockNumber: bigint; evtId: string }[],
) {
  if (settled.length === 0) return;
  const hashes = await hashesOf(
    opts.blockHashes,
    settled.map((s) => s.blockNumber),
  );
  for (const chunk of statementChunks(settled)) {
    const told = new Map(
      (
        await selectOutbox(trx)
          .where(
            "id",
            "in",
            chunk.map((s) => s.evtId),
          )
          .execute()
      ).map((e) => [e.id, e]),
    );
    const rows = chunk.flatMap((s) => {
      const provisional = told.get(s.evtId);
      if (!provisional) return [];
      const { payloadJson, relatedJson, id, createdAt: _, ...e } = provisional;
      return [
        {
          ...e,
          id: `evt_${uuidv7()}`,
          payload: payloadJson,
          related: relatedJson,
          lifecycleState: "final",
          retractedEvtId: null,
          previousEvtId: id,
          dedupeKey: `${type}:${opts.chainId}:${s.key}`,
          blockNumber: s.blockNumber,
          blockHash: hashes.get(s.blockNumber) ?? null,
        },
      ];
    });
    await recordEventsOnce(trx, rows);
  }
  await recordFinalBlocks(trx, opts.chainId, hashes);
}

/**
 * A `retracted` event for each tracked observation, naming the provisional event it retracts; tracking ends. The
 * retractions' ids by the observation's key.
 */
async function retractEvents(trx: Trx, chainId: number, type: string, retract: { key: string; evtId: string }[]) {
  const retractions = new Map<string, string>();
  const keyOf = new Map(retract.map((t) => [t.evtId, t.key]));
  for (const chunk of statementChunks(retract)) {
    const told = await selectOutbox(trx)
      .where(
        "id",
        "in",
        chunk.map((t) => t.evtId),
      )
      .execute();
    if (told.length > 0) {
      const rows = told.map((event) => successorEvent(event, "retracted"));
      await trx.insertInto("webhookOutbox").values(rows).execute();
      for (const row of rows) retractions.set(keyOf.get(row.previousEvtId) as string, row.id);
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
  return retractions;
}

/** Final types: every observation of the blocks that just passed the depth, once (again after a recall). */
async function tellFinal(
  trx: Trx,
  opts: IndexLifecycleOptions,
  ledger: Kysely<LedgerTables>,
  range: Range,
  recalls: ReadonlyMap<string, string>,
) {
  if (range.finalized < range.from) return;
  const { chainId } = opts;
  for (const [type, event] of sourcedEvents(opts.events, "final")) {
    const observed = await event.fromIndex.read(ledger, { chainId, fromBlock: range.from, toBlock: range.finalized });
    const origin = await originsOf(trx, chainId, observed);
    const hashes = await hashesOf(
      opts.blockHashes,
      observed.filter((o) => origin(o)).map((o) => o.blockNumber),
    );
    const rows = observed.flatMap((o) => {
      const from = origin(o);
      if (!from) return [];
      const row = outboxRow(chainId, type, o, from, "final", { blockHash: hashes.get(o.blockNumber) ?? null });
      return [{ ...row, previousEvtId: recalls.get(row.dedupeKey as string) ?? null }];
    });
    await recordEventsOnce(trx, rows);
    await recordFinalBlocks(trx, chainId, hashes);
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
      // A reorg deeper than the depth: its final events recalled, the blocks that replaced them are read again.
      const recalled = await recallReplaced(trx, opts.chainId, opts.blockHashes);
      const recalledFrom = recalled?.from;
      // A chain seen for the first time: what is already past the depth is history, not news.
      let settled = cursor?.finalizedThrough ?? (head > depth ? head - depth : 0n);
      if (recalledFrom !== undefined && recalledFrom - 1n < settled) settled = recalledFrom - 1n;
      const finalized = head - depth > settled ? head - depth : settled;
      if (recalledFrom !== undefined)
        opts.logger.warn("webhook final events recalled: a reorg deeper than the depth", {
          chainId: opts.chainId,
          fromBlock: String(recalledFrom),
        });
      const range: Range = { from: settled + 1n, head, finalized };
      // The chain's own views: the same addresses may hold other rows on another chain.
      const ledger = (trx as unknown as Kysely<LedgerTables>).withSchema(
        chainViewsSchema(opts.viewsSchema, opts.chainId),
      );
      // A fact told again after its recall (in this tick) follows the recall.
      const recalls = recalled?.byFact ?? new Map<string, string>();
      await tellProvisional(trx, opts, ledger, range, recalls);
      await tellFinal(trx, opts, ledger, range, recalls);
      await trx
        .insertInto("indexLifecycleCursors")
        .values({ chainId: opts.chainId, finalizedThrough: finalized })
        .onConflict((oc) => oc.column("chainId").doUpdateSet({ finalizedThrough: finalized, updatedAt: new Date() }))
        .execute();
    });
}

/** What the continuous settling needs: the options of every tick, for each served chain with its finality depth. */
export type IndexLifecycleChains = Omit<IndexLifecycleOptions, "chainId" | "depth" | "blockHashes"> & {
  chains: { chainId: number; depth: number; blockHashes?: BlockHashes }[];
};

/** How often the newest told-final block's hash is compared with the chain's, whatever the index does. */
const RECALL_CHECK_MS = 2_000;

/** With the index's version unchanged, a tick all the same after this long: a safety net, not the way news comes. */
const QUIET_TICK_MS = 30_000;

/** Whether any chain's newest told-final block is no longer the chain's. */
async function anyFinalBlockReplaced(opts: IndexLifecycleChains): Promise<boolean> {
  for (const chain of opts.chains) {
    const { blockHashes } = chain;
    if (!blockHashes) continue;
    if (await newestFinalBlockReplaced(opts.db, chain.chainId, blockHashes)) return true;
  }
  return false;
}

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
  let lastRecallCheck = Date.now();
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
      // A reorg deeper than the index's own window may leave its version as it was: the chain is asked directly.
      let recall = false;
      if (checkpoints !== "" && Date.now() - lastRecallCheck >= RECALL_CHECK_MS) {
        lastRecallCheck = Date.now();
        recall = await anyFinalBlockReplaced(opts);
      }
      if (checkpoints !== "" && (recall || version !== lastVersion || Date.now() - lastTick >= QUIET_TICK_MS)) {
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
