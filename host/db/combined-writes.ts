// Writes of one kind that concurrent callers make, combined into one prepared statement on one pooled connection: one
// round trip and one commit (one disk flush) for all of them, where each would otherwise queue for a connection of its
// own. A batch gathers callers while it waits for its connection; once it holds one, it takes every caller queued then
// and the next batch starts gathering. A caller alone is written at once: no timer, no added latency. The combined
// writes of every kind on a pool run at most `maxInFlight` batches at once between them, so the pool keeps connections
// for other work. A batch the database refuses is written again caller by caller, so one caller's failing write fails
// that caller only.
import type { CompiledQuery } from "kysely";
import type pg from "pg";
import { queryPrepared, runPrepared } from "./prepared-statement.ts";

export interface CombinedWrite<Item> {
  /** The prepared statement's name: its text must be the same for any number of items (arrays as parameters). */
  name: string;
  /** The statement writing these items, built once the batch holds its connection; it answers a row per item, in
   * the items' order. */
  statement(items: Item[]): CompiledQuery;
  /** The order a batch writes its items in (e.g. one lock order for every batch, so none waits for another in a
   * cycle). */
  order?: (a: Item, b: Item) => number;
  /** Batches of the pool's combined writes (of every kind) running at once (default: half its connections). */
  maxInFlight?: number;
  /** Items a batch takes at most (default 16): a batch runs on one connection, so a burst is better spread over a
   * few (a burst of 128 bundler acceptances: 256 at most, one batch of 100-150 ms; 16 at most, batches of 30-80 ms). */
  maxItems?: number;
}

interface Waiter<Item> {
  item: Item;
  resolve: (row: unknown) => void;
  reject: (error: unknown) => void;
}

/** Per pool: the batches running, of every kind of combined write, and what starts each kind's next batch. */
const budgets = new WeakMap<pg.Pool, { inFlight: number; starters: Set<() => void> }>();

/** Returns the write of one item, answered with its row once the batch carrying it has committed. */
export function combinedWrites<Item>(pool: pg.Pool, write: CombinedWrite<Item>): (item: Item) => Promise<unknown> {
  const maxInFlight = write.maxInFlight ?? Math.max(1, Math.floor((pool.options?.max ?? 10) / 2));
  const maxItems = write.maxItems ?? 16;
  const queue: Waiter<Item>[] = [];
  let gathering = false;
  const running = budgets.get(pool) ?? { inFlight: 0, starters: new Set<() => void>() };
  budgets.set(pool, running);

  /** An item of a refused batch alone, on a connection of its own. */
  const alone = (waiter: Waiter<Item>) =>
    runPrepared(pool, write.name, () => write.statement([waiter.item])).then(
      ([row]) => waiter.resolve(row),
      waiter.reject,
    );

  /** One batch: it gathers callers until it holds a connection, then writes those queued. */
  const runBatch = async () => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      gathering = false;
      // What each of them would have met on its own (the pool's timeout, a database that is down).
      for (const waiter of queue.splice(0, maxItems)) waiter.reject(error);
      return;
    }
    gathering = false;
    const batch = queue.splice(0, maxItems);
    if (write.order) batch.sort((a, b) => write.order!(a.item, b.item));
    start(); // the next batch gathers while this one runs
    try {
      const items = batch.map((waiter) => waiter.item);
      const rows = items.length === 0 ? [] : await queryPrepared(client, write.name, write.statement(items));
      client.release();
      for (const [i, waiter] of batch.entries()) waiter.resolve(rows[i]);
    } catch (error) {
      client.release(error as Error); // as pool.query does: a connection whose query failed is closed
      if (batch.length === 1) batch[0]!.reject(error);
      else for (const waiter of batch) alone(waiter);
    }
  };
  const start = () => {
    if (gathering || running.inFlight >= maxInFlight || queue.length === 0) return;
    gathering = true;
    running.inFlight += 1;
    void runBatch().finally(() => {
      running.inFlight -= 1;
      for (const next of running.starters) next();
    });
  };
  running.starters.add(start);

  return (item) =>
    new Promise((resolve, reject) => {
      queue.push({ item, resolve, reject });
      start();
    });
}
