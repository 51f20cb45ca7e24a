// What an API key may create: never a key of more scope or a later expiry than its own (no escalation by key).
import { ApiError } from "../errors/api-error.ts";
import type { Principal } from "../http/env.ts";

export type KeyScope = "read" | "read-write";
const RANK: Record<KeyScope, number> = { read: 0, "read-write": 1 };

export interface RequestedKey {
  scope: KeyScope;
  expiresAt: Date | null;
}

/** Why `caller` may not create `requested`, or null when it may (sessions may create any key). */
export function keyExcess(
  caller: Pick<Principal, "kind" | "scope" | "apiKeyExpiresAt">,
  requested: RequestedKey,
): string | null {
  if (caller.kind !== "api-key") return null;
  if (RANK[requested.scope] > RANK[caller.scope]) return `a ${caller.scope} key cannot create a ${requested.scope} key`;
  const limit = caller.apiKeyExpiresAt ?? null;
  if (limit === null) return null;
  if (requested.expiresAt === null) return `a key expiring ${limit.toISOString()} cannot create a key without expiry`;
  if (requested.expiresAt.getTime() > limit.getTime())
    return `a key expiring ${limit.toISOString()} cannot create a key expiring later`;
  return null;
}

export function assertKeyWithinCaller(caller: Parameters<typeof keyExcess>[0], requested: RequestedKey): void {
  const excess = keyExcess(caller, requested);
  if (excess) throw new ApiError("API_KEY_SCOPE_EXCEEDED", { message: `Not with this key: ${excess}` });
}
