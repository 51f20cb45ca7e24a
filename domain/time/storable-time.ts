// The instants the platform accepts from callers: years 0001 to 9999 (UTC). PostgreSQL's timestamptz reaches from
// 4713 BC to 294276 AD but has no year 0, and JavaScript's Date and ISO 8601 parsing disagree with it outside the
// four-digit years; one bound, checked before a date reaches the database, a parser or the chain.
export const STORABLE_TIME_RULE = "must be between 0001-01-01 and 9999-12-31 (UTC)";

const MIN_MS = new Date("0001-01-01T00:00:00Z").getTime();
const MAX_MS = new Date("9999-12-31T23:59:59.999Z").getTime();

/** Whether an instant (epoch milliseconds) lies within years 0001..9999 UTC. */
export function isStorableTime(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_MS && ms <= MAX_MS;
}
