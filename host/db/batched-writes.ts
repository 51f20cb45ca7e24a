// A write many requests make one row at a time (inserting or marking a row), sent as one statement for all the rows
// asked for meanwhile: the first goes at once; those asked for while it runs go together in the next, and so on. Under
// load that is one round trip, one statement and one commit for a burst instead of one each; alone, a row waits for
// nothing. `keyOf`: rows of one key go in separate statements, in order (a statement's rows must not see each other).
/** At most this many rows in one statement (its array parameters stay small). */
const MAX_BATCH = 500;

interface Waiting<T, R> {
  row: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/** `write` answers one result per row, in the rows' order. */
export function batchedWrites<T, R = void>(
  write: (rows: T[]) => Promise<R[]>,
  options: { keyOf?: (row: T) => string } = {},
): (row: T) => Promise<R> {
  let waiting: Waiting<T, R>[] = [];
  let running = false;
  /** The next statement's rows (the first of each key, up to MAX_BATCH); the others stay waiting, in order. */
  const take = () => {
    const batch: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    const keys = new Set<string>();
    for (const entry of waiting) {
      const key = options.keyOf?.(entry.row);
      if (batch.length >= MAX_BATCH || (key !== undefined && keys.has(key))) rest.push(entry);
      else {
        batch.push(entry);
        if (key !== undefined) keys.add(key);
      }
    }
    waiting = rest;
    return batch;
  };
  const drain = async () => {
    running = true;
    while (waiting.length > 0) {
      const batch = take();
      try {
        const results = await write(batch.map((entry) => entry.row));
        for (const [i, entry] of batch.entries()) entry.resolve(results[i] as R);
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    running = false;
  };
  return (row) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ row, resolve, reject });
      if (!running) void drain();
    });
}
