// Results computed from the index, kept until the index moves (as graph-node caches query results per block). Each
// request reads the index's version afresh: every chain's latest checkpoint, which Ponder commits in the same
// transaction as the block's rows, stamped with the transaction that wrote it (a block that replaces another in a reorg
// can repeat its checkpoint). An entry serves only requests that see the version it was computed under, so a read made
// after a write is COMPLETED (its block indexed) never meets a result computed before that block.
import type { Context } from "hono";
import type pg from "pg";
import type { AppEnv } from "../http/env.ts";

/** The index's version as read: every chain's latest checkpoint, and a stamp of the rows holding them. */
export interface IndexVersion {
  checkpoints: string;
  /**
   * The transaction ids (xmin) of the checkpoint rows: new whenever Ponder writes them, also when a reorg's replacement
   * block repeats the checkpoint of the block it replaced. "" when they cannot be read (checkpoints alone then).
   */
  stamp: string;
}

export interface IndexedReads {
  /** The index's version now: read afresh for every caller, one read shared by concurrent callers (`coalesced`). */
  version(): Promise<string>;
  /**
   * The value of `key` computed at `version`: the kept one, else `compute()`'s. Concurrent requests for the same key
   * and version share one computation; a failed one is not kept.
   */
  get<V>(version: string, key: string, compute: () => Promise<V>): Promise<V>;
}

/**
 * `a` compared with `b`, chain by chain: -1 when any chain's checkpoint went back (a reorg, or a rebuilt index), 1 when
 * none went back and one went on, 0 when equal. Checkpoints are fixed-width decimal strings, so they compare as text.
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const before = b.split(",");
  const after = a.split(",");
  if (before.length !== after.length) return -1; // chains came or went: treat as a new index
  let moved = false;
  for (let i = 0; i < after.length; i++) {
    if (after[i]! < before[i]!) return -1;
    if (after[i]! > before[i]!) moved = true;
  }
  return moved ? 1 : 0;
}

/** A cache of at most `max` results, least recently used first out; `readVersion` reads the index's version. */
export function createIndexedReads(readVersion: () => Promise<IndexVersion>, max: number): IndexedReads {
  const entries = new Map<string, { version: string; value: Promise<unknown> }>();
  let newest: string | undefined;
  let epoch = 0;
  const sharedRead = coalesced(readVersion);
  return {
    async version() {
      const { checkpoints, stamp } = await sharedRead();
      const moved = newest === undefined ? 1 : compareVersions(checkpoints, newest);
      // Behind a version already seen: blocks were replaced, and a replacement may repeat an old checkpoint with other
      // rows. A new epoch leaves every entry of the abandoned branch unmatched, even those still being computed.
      if (moved < 0) {
        entries.clear();
        epoch += 1;
      }
      if (moved !== 0) newest = checkpoints;
      // The stamp tells apart a replacement block that repeats a checkpoint when no read saw the index go back.
      return `${epoch}/${checkpoints}/${stamp}`;
    },
    get<V>(version: string, key: string, compute: () => Promise<V>): Promise<V> {
      const hit = entries.get(key);
      entries.delete(key); // re-inserted below: the Map's order is the recency order
      if (hit && hit.version === version) {
        entries.set(key, hit);
        return hit.value as Promise<V>;
      }
      const entry = { version, value: compute() as Promise<unknown> };
      entries.set(key, entry);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return entry.value as Promise<V>;
    },
  };
}

/**
 * `read` shared by concurrent callers, each answered by a read that began after it called: one in flight serves those
 * who called before it began; whoever calls meanwhile waits for the next one, begun once it ends. Under load that is
 * one query per round trip instead of one per request.
 */
export function coalesced<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  let queued: Promise<T> | undefined;
  const start = () => {
    const current: Promise<T> = read().finally(() => {
      if (inFlight === current) inFlight = undefined;
    });
    inFlight = current;
    return current;
  };
  return () => {
    if (!inFlight) return start();
    queued ??= inFlight
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = undefined;
        return start();
      });
    return queued;
  };
}

/** The table behind the views schema's `_ponder_checkpoint` view (in the index schema it points at now). */
const CHECKPOINT_TABLE_SQL = `select d.refobjid::regclass::text as base
  from pg_rewrite r
  join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
    and d.refclassid = 'pg_class'::regclass and d.refobjid <> r.ev_class
  where r.ev_class = to_regclass(format('%I._ponder_checkpoint', $1::text))
  limit 1`;

/**
 * The version query over the index's views schema; a named statement, planned once per connection. A view shows no
 * system columns, so the stamp (xmin) is read from the table behind it, found once and again whenever the views were
 * pointed at another index schema (its checkpoints then differ from the view's in the same snapshot, or it is gone).
 */
export function indexVersionReader(pool: pg.Pool, viewsSchema: string): () => Promise<IndexVersion> {
  const checkpointsOf = (from: string) =>
    `select coalesce(string_agg(latest_checkpoint, ',' order by chain_id), '') from ${from}`;
  const view = `"${viewsSchema}"._ponder_checkpoint`;
  const unstamped = { name: "index-version", text: `select (${checkpointsOf(view)}) as checkpoints, '' as stamp` };
  const stamped = (table: string) => ({
    name: `index-version ${table}`,
    text:
      `select (${checkpointsOf(view)}) as checkpoints, (${checkpointsOf(table)}) as table_checkpoints, ` +
      `(select coalesce(string_agg(xmin::text, ',' order by chain_id), '') from ${table}) as stamp`,
  });
  let table: string | undefined;
  return async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      table ??= (await pool.query<{ base: string }>(CHECKPOINT_TABLE_SQL, [viewsSchema])).rows[0]?.base;
      if (table === undefined) break;
      const row = await pool
        .query<IndexVersion & { table_checkpoints: string }>(stamped(table))
        .then((result) => result.rows[0])
        .catch(() => undefined);
      if (row && row.table_checkpoints === row.checkpoints) return { checkpoints: row.checkpoints, stamp: row.stamp };
      table = undefined;
    }
    return (await pool.query<IndexVersion>(unstamped)).rows[0]!;
  };
}

/**
 * `compute()`'s result for `key` at the index version this request sees, shared by every request that sees the same
 * version; computed afresh when the host keeps no results (READ_CACHE_ENTRIES=0, tests of parts). The version is read
 * once per request. `key` must name everything the result depends on besides the index's rows and the request's chain
 * (the same addresses may hold other rows on another chain: results are kept per chain).
 */
export async function indexedRead<V>(c: Context<AppEnv>, key: string, compute: () => Promise<V>): Promise<V> {
  const reads = readsFor(c);
  if (!reads) return compute();
  return reads.get(await versionOnce(c, reads), `${c.get("requestChainId") ?? ""}/${key}`, compute);
}

/** The index version this request reads at, once per request; undefined when it may use no kept results. */
export function requestIndexVersion(c: Context<AppEnv>): Promise<string> | undefined {
  const reads = readsFor(c);
  return reads ? versionOnce(c, reads) : undefined;
}

/** The host's kept results, unless it keeps none or the request asks for fresh answers (`Cache-Control: no-cache`). */
function readsFor(c: Context<AppEnv>): IndexedReads | undefined {
  const reads = c.get("indexedReads");
  return reads && !/\bno-cache\b/i.test(c.req.header("cache-control") ?? "") ? reads : undefined;
}

function versionOnce(c: Context<AppEnv>, reads: IndexedReads): Promise<string> {
  let version = c.get("indexVersion");
  if (!version) {
    version = reads.version();
    c.set("indexVersion", version);
  }
  return version;
}
