// When each API key was last used, kept cheaply: at most one write per key and interval per process, never awaited
// by the request, and the row only written when its value is older than the interval (so across processes too).
import { sql } from "kysely";
import type { PlatformDb } from "../db/database.ts";

export const LAST_USED_INTERVAL_MS = 60_000;
const MAX_TRACKED = 10_000;

export interface LastUsedRecorder {
  /** Notes a use of the key; returns at once. */
  touch(keyId: string): void;
}

/** `write` records a use of the key in the store; a failed write is tried again at the key's next use. */
export function createLastUsedRecorder(
  write: (keyId: string) => Promise<unknown>,
  intervalMs = LAST_USED_INTERVAL_MS,
  now: () => number = Date.now,
): LastUsedRecorder {
  const written = new Map<string, number>();
  return {
    touch(keyId) {
      const at = now();
      const last = written.get(keyId);
      if (last !== undefined && at - last < intervalMs) return;
      if (written.size >= MAX_TRACKED) written.clear(); // bounded: forgetting only costs a write
      written.set(keyId, at);
      write(keyId).catch(() => written.delete(keyId));
    },
  };
}

/** Sets api_keys.last_used_at to now unless it is more recent than the interval (its trigger does not fire: 0013). */
export function lastUsedWriter(db: PlatformDb, intervalMs = LAST_USED_INTERVAL_MS) {
  return (keyId: string) =>
    db
      .updateTable("apiKeys")
      .set({ lastUsedAt: sql<Date>`now()` })
      .where("id", "=", keyId)
      .where((eb) =>
        eb.or([
          eb("lastUsedAt", "is", null),
          eb("lastUsedAt", "<", sql<Date>`now() - make_interval(secs => ${intervalMs / 1000})`),
        ]),
      )
      .execute();
}
