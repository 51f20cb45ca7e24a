// The Prefer header (RFC 7240) as mutations use it: `wait=N` (5 to 99 s) and `respond-async`; and as any request of
// the index uses it: `handling=strict`.
import { ApiError } from "../errors/api-error.ts";

export interface Preference {
  waitSeconds?: number;
  respondAsync: boolean;
}

export function parsePrefer(header: string | undefined): Preference {
  const preference: Preference = { respondAsync: false };
  if (!header) return preference;
  for (const token of header.split(",")) {
    const [name, value] = token
      .split(";")[0]
      .trim()
      .split("=")
      .map((p) => p?.trim());
    if (name?.toLowerCase() === "respond-async") preference.respondAsync = true;
    if (name?.toLowerCase() === "wait") {
      const seconds = Number(value);
      if (!/^\d+$/.test(value ?? "") || seconds < 5 || seconds > 99) {
        throw new ApiError("BAD_REQUEST", {
          message: "Prefer: wait must be a whole number of seconds from 5 to 99",
          details: { issues: [{ path: "Prefer", message: "wait=N with N from 5 to 99" }] },
        });
      }
      preference.waitSeconds = seconds;
    }
  }
  return preference;
}

export function preferenceApplied(p: Preference): string | undefined {
  const parts = [p.respondAsync ? "respond-async" : undefined, p.waitSeconds ? `wait=${p.waitSeconds}` : undefined];
  const applied = parts.filter(Boolean).join(", ");
  return applied || undefined;
}

/**
 * Whether the client prefers `handling=strict` (RFC 7240 §4.4: how to handle potential error conditions): a request
 * of an index that is not ready is then answered 503 INDEXER_REINDEXING at once instead of waiting for it to catch up.
 */
export function prefersStrictHandling(header: string | undefined): boolean {
  return (header ?? "").split(",").some((token) => {
    const [name, value] = token
      .split(";")[0]!
      .split("=")
      .map((part) => part.trim().toLowerCase());
    return name === "handling" && value?.replace(/^"(.*)"$/, "$1") === "strict";
  });
}

/** The Preference-Applied value of an honoured `handling=strict`. */
export const STRICT_HANDLING_APPLIED = "handling=strict";
