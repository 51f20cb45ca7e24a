// API keys of members (the HTTP routes and the CLI): create (shown once), list, revoke.
import { sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { generateApiKey } from "../../host/auth/api-keys.ts";
import { isMember } from "../../host/auth/memberships.ts";
import type { PlatformDb } from "../../host/db/database.ts";

/** What an API key's record shows: never its secret or the secret's digest. */
export const API_KEY_COLUMNS = [
  "id",
  "organizationId",
  "userId",
  "name",
  "keyPrefix",
  "scope",
  "createdAt",
  "expiresAt",
  "lastUsedAt",
  "revokedAt",
] as const;

/** A new key of a member, shown once (`key`) with its record. */
export async function createApiKey(
  db: PlatformDb,
  input: { organizationId: string; userId: string; name: string; scope: "read" | "read-write"; expiresAt?: Date },
) {
  if (!(await isMember(db, input.organizationId, input.userId)))
    throw new Error("The user is not a member of that organisation");
  const key = generateApiKey();
  const record = await db
    .insertInto("apiKeys")
    .values({
      id: uuidv7(),
      organizationId: input.organizationId,
      userId: input.userId,
      name: input.name,
      keyHash: key.hash,
      keyPrefix: key.displayPrefix,
      scope: input.scope,
      expiresAt: input.expiresAt ?? null,
    })
    .returning(API_KEY_COLUMNS)
    .executeTakeFirstOrThrow();
  return { ...record, key: key.key };
}

export async function listApiKeys(db: PlatformDb, organizationId?: string) {
  let query = db.selectFrom("apiKeys").select(API_KEY_COLUMNS).orderBy("createdAt");
  if (organizationId) query = query.where("organizationId", "=", organizationId);
  return query.execute();
}

/**
 * Revokes a key at once (every host drops its cached key rows on the change's NOTIFY); a revoked key stays revoked
 * at its first time. `organizationId` confines it to that organisation's keys. The record, or undefined if none.
 */
export async function revokeApiKey(db: PlatformDb, id: string, organizationId?: string) {
  let query = db.updateTable("apiKeys").set({ revokedAt: sql<Date>`coalesce(revoked_at, now())` }).where("id", "=", id);
  if (organizationId) query = query.where("organizationId", "=", organizationId);
  return query.returning(API_KEY_COLUMNS).executeTakeFirst();
}
