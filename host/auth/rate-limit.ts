// The per-key request window behind 429 auth.apikey.THROTTLED: at most API_KEY_RATE_LIMIT requests in any
// API_KEY_RATE_WINDOW_SECONDS (sliding, by whole seconds of the database's clock), counted in PostgreSQL so every host
// process shares one window. A host takes leases of requests (platform.take_api_key_requests) and serves them from
// memory: one round trip per lease, a lease of one near the limit (exact there); a lease lasts one second, and what
// it left unused is handed back with the next. A key whose lease runs out within its second asks for twice as much the
// next time (nextWant, up to mostWanted). The lease's commit does not wait for the disk: a crash of the database
// forgets at most the leases of its last moment, which lets a key that many more requests once.
import { sql } from "kysely";
import type { PlatformDb } from "../db/database.ts";
import { unflushedCommit } from "../db/unflushed-commit.ts";

export type WindowAnswer = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateWindow {
  /** Counts one request of `key`; when the allowance is used up, says how many seconds until it frees up. */
  take(key: string): Promise<WindowAnswer>;
}

export interface Lease {
  /** What it was granted, and what is left of it. */
  granted: number;
  left: number;
  bucket: string;
  /** Local time at which the lease's second of the database's clock ends. */
  endsAt: number;
}

/** The function's row, camel-cased by the platform database's plugin. */
interface LeaseRow {
  granted: number;
  leaseBucket: string;
  msIntoBucket: number;
  retryAfterSeconds: number;
}

/** The lease a key asks for at first (0020's function grants 64 a lease, 0038's several of them at once). */
export const FIRST_WANT = 64;

/** The most a key's lease asks for: 512, but no more than a sixteenth of its allowance (what a host leaves unused is
 * handed back only by its next lease, so a burst that stops keeps it counted until its second leaves the window),
 * never less than 64; whole leases of 64. */
export const mostWanted = (limit: number) =>
  Math.max(FIRST_WANT, Math.min(512, Math.floor(limit / 16 / FIRST_WANT) * FIRST_WANT));

/** The size of a key's next lease: twice the last if that one ran out within its second (a burst), half if more than
 * half of it was left unused. */
export function nextWant(want: number, previous: Lease | undefined, now: number, most: number): number {
  if (!previous) return want;
  if (previous.left === 0 && now < previous.endsAt) return Math.min(most, want * 2);
  if (previous.left > previous.granted / 2) return Math.max(FIRST_WANT, want / 2);
  return want;
}

/** Bounds the per-key maps against key churn. */
const MAX_KEYS = 100_000;
/** A refusal is believed this long at most: another host may hand requests back sooner. */
const REFUSAL_MS = 1000;

export function createRateWindow(db: PlatformDb, limit: number, windowSeconds: number): RateWindow {
  const leases = new Map<string, Lease>();
  const refusals = new Map<string, { until: number; retryAt: number }>();
  const renewing = new Map<string, Promise<void>>();
  const wants = new Map<string, number>();
  const most = mostWanted(limit);

  async function renew(key: string) {
    const previous = leases.get(key);
    leases.delete(key);
    const handBack = previous && previous.left > 0 ? previous : undefined;
    const want = nextWant(wants.get(key) ?? FIRST_WANT, previous, Date.now(), most);
    const { rows } = await sql<LeaseRow>`select lease.* from ${unflushedCommit} as unflushed,
      platform.take_api_key_requests(${key}, ${limit}, ${windowSeconds}, ${handBack?.left ?? 0},
        ${handBack?.bucket ?? null}, ${want}::integer) as lease`.execute(db);
    const row = rows[0]!;
    const now = Date.now();
    if (leases.size > MAX_KEYS) leases.clear();
    if (refusals.size > MAX_KEYS) refusals.clear();
    if (wants.size > MAX_KEYS) wants.clear();
    wants.set(key, want);
    if (row.granted > 0) {
      refusals.delete(key);
      leases.set(key, {
        granted: row.granted,
        left: row.granted,
        bucket: String(row.leaseBucket),
        endsAt: now + 1000 - row.msIntoBucket,
      });
    } else {
      const retryAt = now + row.retryAfterSeconds * 1000;
      refusals.set(key, { until: Math.min(retryAt, now + REFUSAL_MS), retryAt });
    }
  }

  return {
    async take(key) {
      for (;;) {
        const now = Date.now();
        const lease = leases.get(key);
        if (lease && lease.left > 0 && now < lease.endsAt) {
          lease.left -= 1;
          return { allowed: true };
        }
        const refusal = refusals.get(key);
        if (refusal && now < refusal.until)
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((refusal.retryAt - now) / 1000)) };
        // Concurrent requests of one key wait for one lease.
        let pending = renewing.get(key);
        if (!pending) {
          pending = renew(key).finally(() => renewing.delete(key));
          renewing.set(key, pending);
        }
        await pending;
      }
    },
  };
}
