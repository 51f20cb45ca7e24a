// Parses one filter value from the query string into the field's type, or fails naming the field (`filter.<field>`).
import { isStorableTime } from "../../domain/time/storable-time.ts";
import { badRequest } from "../errors/api-error.ts";
import type { CollectionField } from "./spec.ts";

/** A filter value as bound to SQL: bigint values stay decimal strings so that no precision is lost. */
export type FilterValue = string | number | boolean | Date;

const INTEGER = /^-?\d+$/;
const MAX_BIGINT_DIGITS = 78;
// `+` in a query string decodes to a space, so `...T10:00:00+02:00` sent unencoded arrives as `...T10:00:00 02:00`.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+\- ]\d{2}(?::?\d{2})?)?)?$/;

export function invalidFilterValue(field: string, message: string) {
  const path = `filter.${field}`;
  return badRequest(`Invalid query field "${path}": ${message}`, [{ path, message }]);
}

function quoted(raw: string): string {
  return JSON.stringify(raw.length > 64 ? `${raw.slice(0, 64)}…` : raw);
}

/**
 * ISO 8601 date or date-time; a date-time without an offset is UTC. Calendar-checked (no 2024-02-30) and within
 * years 0001..9999 UTC once the offset is applied (domain/time/storable-time.ts): PostgreSQL has no year 0.
 */
export function parseTimestamp(raw: string): Date | undefined {
  const match = ISO_8601.exec(raw);
  if (!match) return undefined;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "", offset = "Z"] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  const daysInMonth = new Date(Date.UTC(2000 + (y % 400), mo, 0)).getUTCDate(); // leap years repeat every 400
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59) return undefined;
  let offsetMinutes = 0;
  if (offset !== "Z") {
    const digits = offset.slice(1).replace(":", "");
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || "0")];
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (offset.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Number(fraction.padEnd(3, "0").slice(0, 3));
  const local = new Date(0);
  local.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which maps years 0..99 to 1900..1999
  local.setUTCHours(h, mi, s, ms);
  const instant = new Date(local.getTime() - offsetMinutes * 60_000);
  return isStorableTime(instant.getTime()) ? instant : undefined;
}

export function parseFieldValue(field: CollectionField, raw: string): FilterValue {
  switch (field.type) {
    case "text":
      return field.normalize ? field.normalize(raw) : raw;
    case "number": {
      const value = Number(raw);
      if (!INTEGER.test(raw) || !Number.isSafeInteger(value)) {
        throw invalidFilterValue(field.name, `expected an integer, got ${quoted(raw)}`);
      }
      return value;
    }
    case "bigint": {
      if (!INTEGER.test(raw) || raw.replace("-", "").length > MAX_BIGINT_DIGITS) {
        throw invalidFilterValue(
          field.name,
          `expected an integer as a decimal string of at most ${MAX_BIGINT_DIGITS} digits, got ${quoted(raw)}`,
        );
      }
      return BigInt(raw).toString();
    }
    case "boolean":
      if (raw === "true") return true;
      if (raw === "false") return false;
      throw invalidFilterValue(field.name, `expected true or false, got ${quoted(raw)}`);
    case "timestamp": {
      const date = parseTimestamp(raw);
      if (!date)
        throw invalidFilterValue(
          field.name,
          `expected an ISO 8601 timestamp between years 0001 and 9999, got ${quoted(raw)}`,
        );
      return date;
    }
    case "enum":
      if (!field.values?.includes(raw)) {
        throw invalidFilterValue(field.name, `expected one of ${field.values?.join(", ")}, got ${quoted(raw)}`);
      }
      return raw;
  }
}
