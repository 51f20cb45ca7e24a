// The short caches of rows the /api middleware and routes read on most requests (kept honest by the platform change
// listener; without it nothing is cached), and the index-versioned read cache (READ_CACHE_ENTRIES; 0: none).
import type { KeyRow } from "../auth/authenticate.ts";
import { createIndexedReads, indexVersionReader } from "../cache/indexed-reads.ts";
import { createShortCache } from "../cache/short-cache.ts";
import type { PlatformChanges } from "../db/platform-changes.ts";
import type { HostContext } from "../plugin.ts";

/** How long a cached API key or chain row may serve at most, should a change notification be lost. */
const CACHE_TTL_MS = 5000;
const CACHE_MAX_ENTRIES = 10_000;

export type RequestCaches = ReturnType<typeof requestCaches>;

export function requestCaches(ctx: HostContext, changes?: PlatformChanges) {
  const cache = <V>() =>
    changes ? createShortCache<V>(changes, { ttlMs: CACHE_TTL_MS, max: CACHE_MAX_ENTRIES }) : undefined;
  return {
    chainRows: cache<unknown>(),
    participantRows: cache<unknown>(),
    organizationRows: cache<unknown>(),
    keys: cache<KeyRow>(),
    indexedReads:
      ctx.config.READ_CACHE_ENTRIES > 0
        ? createIndexedReads(
            indexVersionReader(ctx.db.pool, ctx.config.INDEX_VIEWS_SCHEMA),
            ctx.config.READ_CACHE_ENTRIES,
          )
        : undefined,
  };
}
