// Failed authentication attempts, counted per subject (an account's email, a user, a source address) in the shared
// platform.auth_failures table, so every host process sees the same counts. Past a policy's free failures each
// further failure locks the subject out for a growing time; a lock read here is the same for every process.
import { sql } from "kysely";
import type { PlatformDb } from "../db/database.ts";

export interface LockoutPolicy {
  /** Failures allowed before any lockout. */
  freeFailures: number;
  /** The first lockout; each further failure doubles it, up to maxSeconds. */
  baseSeconds: number;
  maxSeconds: number;
  /** Failures older than this (counted from the last one) are forgotten. */
  resetSeconds: number;
}

export type FailureScope = "sign-in:account" | "two-factor:account" | "sign-in:address" | "credential:address";

export interface Subject {
  scope: FailureScope;
  key: string;
  policy: LockoutPolicy;
}

/** What counting an attempt found: `counted` false when the subject was locked out (nothing counted). */
export interface CountResult {
  counted: boolean;
  /** Seconds until the subject's lockout ends (0: not locked out), including one this count just started. */
  lockedSeconds: number;
}

/** Doublings beyond which every lockout is maxSeconds anyway. */
const MAX_DOUBLINGS = 30;

/** The lockout after the n-th failure (1-based) in seconds: 0 within the free failures, then base, 2 base, 4 base… */
export function lockoutSeconds(failures: number, policy: LockoutPolicy): number {
  const beyond = failures - policy.freeFailures;
  if (beyond <= 0) return 0;
  return Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** Math.min(beyond - 1, MAX_DOUBLINGS));
}

/** lockoutSeconds for 1, 2, … failures past the free ones, up to where it stops growing: the SQL indexes it. */
function lockoutTable(policy: LockoutPolicy): number[] {
  return Array.from({ length: MAX_DOUBLINGS + 1 }, (_, i) => lockoutSeconds(policy.freeFailures + i + 1, policy));
}

/**
 * Counts one failure (or an attempt about to be verified) in one atomic upsert. A subject locked out is left as it
 * is; failures older than resetSeconds start the count again.
 */
export async function countFailure(db: PlatformDb, subject: Subject): Promise<CountResult> {
  const { policy } = subject;
  const table = lockoutTable(policy);
  const free = policy.freeFailures;
  const locked = sql`t.locked_until > now()`;
  const next = sql`case when t.last_failure_at < now() - make_interval(secs => ${policy.resetSeconds}) then 1
    else t.failures + 1 end`;
  const lockout = sql`case when ${next} <= ${free} then 0
    else (${table}::int[])[least(${next} - ${free}, ${table.length})] end`;
  const { rows } = await sql<{ counted: boolean; wait: number }>`
    insert into platform.auth_failures as t (scope, subject, failures, last_failure_at, locked_until)
    values (${subject.scope}, ${subject.key}, 1, now(), now() + make_interval(secs => ${lockoutSeconds(1, policy)}))
    on conflict (scope, subject) do update set
      failures = case when ${locked} then t.failures else ${next} end,
      locked_until = case when ${locked} then t.locked_until else now() + make_interval(secs => ${lockout}) end,
      last_failure_at = case when ${locked} then t.last_failure_at else now() end
    returning last_failure_at = now() as counted,
      greatest(0, ceil(extract(epoch from locked_until - now())))::int as wait`.execute(db);
  const row = rows[0];
  return { counted: row?.counted ?? true, lockedSeconds: row?.wait ?? 0 };
}

/**
 * Takes back one counted attempt that turned out not to be a failure (a success, or one refused elsewhere), and the
 * lockout it started. A lockout the remaining failures still earn stays: parallel attempts may have counted past
 * this one meanwhile, and lifting their lock would let one more guess through.
 */
export async function uncountFailure(db: PlatformDb, subject: Subject): Promise<void> {
  await sql`
    update platform.auth_failures
    set failures = greatest(failures - 1, 0),
        locked_until = case when failures - 1 <= ${subject.policy.freeFailures} then least(locked_until, now())
                            else locked_until end
    where scope = ${subject.scope} and subject = ${subject.key}`.execute(db);
}

/** Forgets a subject's failures (an account that signed in). */
export async function forgetFailures(db: PlatformDb, subject: Subject): Promise<void> {
  await sql`delete from platform.auth_failures where scope = ${subject.scope} and subject = ${subject.key}`.execute(db);
}

/** Drops rows nobody is counting any more (now and then, so the table stays as small as the attacks on it). */
export async function pruneFailures(db: PlatformDb, olderThanSeconds: number): Promise<void> {
  await sql`
    delete from platform.auth_failures
    where last_failure_at < now() - make_interval(secs => ${olderThanSeconds}) and locked_until < now()`.execute(db);
}
