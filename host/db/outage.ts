// A loop or timer that needs the database waits it out when it is down: each failure that means "no database"
// lengthens the wait (backoff), and the outage is logged once when it starts and once when it ends, not per try.
import { type BackoffPolicy, backoffDelay } from "../backoff.ts";
import { ApiError } from "../errors/api-error.ts";
import type { Logger } from "../logger.ts";

/** PostgreSQL's connection-class codes (08...) and the server shutting down, restarting or refusing sessions. */
const UNAVAILABLE_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND"]);
/** What pg says when the server goes away under a client, or a pool cannot get a connection. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)/i;

/** Whether an error means the database cannot be reached now (as opposed to a query that failed on its own). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== "object") return UNAVAILABLE_MESSAGES.test(String(error));
  const { code, errors, message } = error as { code?: unknown; errors?: unknown; message?: unknown };
  if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code) || code.startsWith("08"))) {
    return true;
  }
  if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true; // AggregateError of the addresses tried
  return UNAVAILABLE_MESSAGES.test(String(message ?? error));
}

/** Whether `error` or one of its causes means the database cannot be reached now. */
export function isDatabaseUnavailableCause(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    if (isDatabaseUnavailable(e)) return true;
  }
  return false;
}

/** The supervisor restarts a killed PostgreSQL within a few seconds: a client retries soon. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** A request's answer while the database cannot be reached: 503 with Retry-After, never a 500. */
export function databaseUnavailable(): ApiError {
  return new ApiError("SERVICE_UNAVAILABLE", {
    message: "The database cannot be reached right now; retry after Retry-After",
    headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
    details: { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
  });
}

/** While the database is down: 0.5 s, 1 s, 2 s ... 10 s between tries. */
export const OUTAGE_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 10_000 };

export interface DatabaseOutage {
  /**
   * After a failed try: when `error` means the database is down, the wait before the next try (logging the outage's
   * start once); else undefined, and the caller reports the error as it would.
   */
  failed(error: unknown): number | undefined;
  /** After a try that worked: ends an outage (logged once, with its length). */
  succeeded(): void;
  /** Whether the last try found the database down. */
  down(): boolean;
}

export function databaseOutage(
  logger: Logger,
  what: string,
  policy: BackoffPolicy = OUTAGE_BACKOFF,
  now: () => number = Date.now,
): DatabaseOutage {
  let failures = 0;
  let since = 0;
  return {
    failed(error) {
      if (!isDatabaseUnavailable(error)) return undefined;
      if (failures === 0) {
        since = now();
        logger.warn(`${what}: database unavailable; waiting for it`, { error: String(error) });
      }
      failures += 1;
      return backoffDelay(policy, failures);
    },
    succeeded() {
      if (failures === 0) return;
      logger.info(`${what}: database back`, { downSeconds: Math.round((now() - since) / 100) / 10, tries: failures });
      failures = 0;
    },
    down: () => failures > 0,
  };
}
