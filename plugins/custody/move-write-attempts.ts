// A move requested again after a write of it failed asks for that write again: under the key it had, an earlier
// run's request is found and attached to (exactly once), unless it failed or was cancelled, which changed nothing on
// chain (reverted, refused by its estimate, never signed: e.g. the partition's quorum expired), so the write is asked
// for under the key's next attempt. A write that may still be mined (DEAD_LETTER) is never asked for again.

/** Ended without changing anything on chain. */
const UNDONE = new Set(["FAILED", "CANCELLED"]);
/** Requests of one move stop at this many attempts a write (each run of the move makes at most one). */
export const MAX_WRITE_ATTEMPTS = 20;

/** The Idempotency-Key of a move's write at an attempt (the first keeps the key it always had). */
export function moveWriteKey(migrationId: string, key: string, attempt: number): string {
  return attempt === 0
    ? `custody-migration:${migrationId}:${key}`
    : `custody-migration:${migrationId}:${key}:${attempt}`;
}

/** The write's live request: the first attempt whose request is not undone (asked for when there is none). */
export async function liveWriteRequest(
  submitAt: (idempotencyKey: string) => Promise<{ id: string; status: string }>,
  migrationId: string,
  key: string,
): Promise<string> {
  let request = await submitAt(moveWriteKey(migrationId, key, 0));
  for (let attempt = 1; UNDONE.has(request.status) && attempt < MAX_WRITE_ATTEMPTS; attempt++) {
    request = await submitAt(moveWriteKey(migrationId, key, attempt));
  }
  return request.id;
}
