// A write many requests make one row at a time (marking a row, say), sent as one statement for all the rows asked for
// meanwhile: the first goes at once; those asked for while it runs go together in the next, and so on. Under load
// that is one round trip and one statement for a burst instead of one each; alone, a row waits for nothing.
/** At most this many rows in one statement (its array parameters stay small). */
const MAX_BATCH = 500;

export function batchedWrites<T>(write: (rows: T[]) => Promise<void>): (row: T) => Promise<void> {
  let waiting: { row: T; resolve(): void; reject(error: unknown): void }[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_BATCH);
      waiting = waiting.slice(MAX_BATCH);
      try {
        await write(batch.map((entry) => entry.row));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    running = false;
  };
  return (row) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ row, resolve, reject });
      if (!running) void drain();
    });
}
