// Lookups by key made in the same turn of the event loop, answered by one load of all their keys (a JSON-RPC batch
// of 100 receipt lookups is one query, not 100): each caller gets its key's value.

/** `load` answers a set of distinct keys with a map; a key it leaves out resolves to undefined. */
export function batchLoader<K, V>(load: (keys: K[]) => Promise<Map<K, V>>): (key: K) => Promise<V | undefined> {
  let pending: Map<K, { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]> | undefined;
  const flush = async (batch: NonNullable<typeof pending>) => {
    try {
      const values = await load([...batch.keys()]);
      for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(values.get(key));
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    }
  };
  return (key) =>
    new Promise((resolve, reject) => {
      if (!pending) {
        const batch = new Map();
        pending = batch;
        setImmediate(() => {
          pending = undefined;
          void flush(batch);
        });
      }
      const waiters = pending.get(key) ?? [];
      waiters.push({ resolve, reject });
      pending.set(key, waiters);
    });
}
