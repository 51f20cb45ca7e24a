// The request logs' opaque keyset cursor: the last row's (requestedAt, id), base64url JSON.
import type { Cursor } from "./queries.ts";

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.requestedAt.toISOString(), cursor.id])).toString("base64url");
}

export function decodeCursor(text: string): Cursor | undefined {
  try {
    const [at, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown[];
    const requestedAt = new Date(String(at));
    if (typeof at !== "string" || Number.isNaN(requestedAt.getTime()) || typeof id !== "string" || id.length > 64)
      return undefined;
    return { requestedAt, id };
  } catch {
    return undefined;
  }
}
