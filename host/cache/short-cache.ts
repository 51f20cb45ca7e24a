// A small in-process cache for per-request lookups (API key → principal, organisation → chain row): an entry lives
// at most `ttlMs` and only while no platform change was notified since it was read (host/db/platform-changes.ts).
// Concurrent misses of one key share one load begun under the same generation: a burst of requests after an entry
// expired (or at start) costs one query, not one per request waiting for a pool connection.
import type { PlatformChanges } from "../db/platform-changes.ts";

export interface ShortCache<V> {
  /** The cached value of `key`, else `load()`'s (cached when `keep` says so; undefined is never cached). */
  get(key: string, load: () => Promise<V | undefined>, keep?: (value: V) => boolean): Promise<V | undefined>;
}

export function createShortCache<V>(changes: PlatformChanges, options: { ttlMs: number; max: number }): ShortCache<V> {
  const entries = new Map<string, { value: V; at: number; generation: number }>();
  /** Loads in flight: as fresh as an entry read under the same generation, so callers meanwhile share them. */
  const loading = new Map<string, { generation: number; value: Promise<V | undefined> }>();
  return {
    async get(key, load, keep = () => true) {
      const generation = changes.generation();
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && generation !== null && hit.generation === generation && now - hit.at < options.ttlMs) {
        return hit.value;
      }
      const shared = loading.get(key);
      if (shared && generation !== null && shared.generation === generation) return shared.value;
      const loaded = load();
      if (generation !== null) {
        const own = { generation, value: loaded };
        loading.set(key, own);
        const done = () => {
          if (loading.get(key) === own) loading.delete(key);
        };
        loaded.then(done, done);
      }
      const value = await loaded;
      if (value === undefined || generation === null || !keep(value)) entries.delete(key);
      else {
        if (entries.size >= options.max) entries.clear(); // bounded: churn only costs lookups
        entries.set(key, { value, at: now, generation });
      }
      return value;
    },
  };
}
