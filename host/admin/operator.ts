// Operator actions (the CLI and the first-start bootstrap): organisations, people, roles and API keys.
import { type Kysely, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import { generateApiKey } from "../auth/api-keys.ts";
import { isMember } from "../auth/memberships.ts";
import { hashSecret } from "../auth/passwords.ts";
import { isRole } from "../auth/permissions.ts";
import { newTotpSecret, totpUri } from "../auth/totp.ts";
import { seal } from "../crypto/sealed.ts";
import type { Custody } from "../custody/custody.ts";
import type { PlatformDb } from "../db/database.ts";
import { grantRoles } from "./members.ts";

export const PROVISION_TASK = "systems:provision";

/** A new organisation with its custody seed; its system on the chain is deployed by the platform's worker. */
export async function createOrganization(
  db: PlatformDb,
  custody: Custody,
  input: { name: string; defaultChainId: number },
): Promise<{ organizationId: string; signer: string }> {
  const organizationId = uuidv7();
  await db
    .insertInto("organizations")
    .values({ id: organizationId, name: input.name, defaultChainId: input.defaultChainId })
    .execute();
  const signer = await custody.provisionOrganization(organizationId);
  await requestSystemProvisioning(db, organizationId, input.defaultChainId);
  return { organizationId, signer };
}

/**
 * Queues the deployment of the organisation's system on a chain. The job key folds repeats into one pending job,
 * and the per-organisation queue runs them one at a time (a key alone lets a second start while the first runs).
 */
export async function requestSystemProvisioning(db: PlatformDb, organizationId: string, chainId: number) {
  await sql`select graphile_worker.add_job(${PROVISION_TASK}, ${JSON.stringify({ organizationId, chainId })}::json,
    queue_name => ${`provision:${organizationId}`}, job_key => ${`provision:${organizationId}:${chainId}`},
    max_attempts => 5)`.execute(db as unknown as Kysely<unknown>);
}

export async function createUser(
  db: PlatformDb,
  masterKey: Buffer,
  input: { email: string; displayName: string; password?: string; pincode?: string; totp?: boolean },
): Promise<{ userId: string; totpSecret?: string; totpUri?: string }> {
  const userId = uuidv7();
  const email = input.email.toLowerCase();
  const totpSecret = input.totp ? newTotpSecret() : undefined;
  await db
    .insertInto("users")
    .values({
      id: userId,
      email,
      displayName: input.displayName,
      passwordHash: input.password ? await hashSecret(input.password) : null,
      pincodeHash: input.pincode ? await hashSecret(input.pincode) : null,
      totpSecret: totpSecret ? seal(Buffer.from(totpSecret, "utf8"), masterKey) : null,
    })
    .execute();
  return { userId, ...(totpSecret ? { totpSecret, totpUri: totpUri(totpSecret, email) } : {}) };
}

export async function grantRole(db: PlatformDb, input: { organizationId: string; userId: string; role: string }) {
  if (!isRole(input.role)) throw new Error(`Unknown role ${input.role}`);
  await grantRoles(db, { organizationId: input.organizationId, userId: input.userId, roles: [input.role] });
}

/** Grants `role` and gives the member a custody wallet in the organisation (once): members are participants. */
export async function addMember(
  db: PlatformDb,
  custody: Custody,
  input: { organizationId: string; userId: string; role: string },
): Promise<{ wallet: string }> {
  await grantRole(db, input);
  return { wallet: await custody.provisionMemberWallet(input.organizationId, input.userId) };
}

/** Every member without a custody wallet in their organisation gets one (members granted before wallets existed). */
export async function provisionMissingMemberWallets(db: PlatformDb, custody: Custody): Promise<number> {
  const missing = await db
    .selectFrom("memberships as m")
    .select(["m.organizationId", "m.userId"])
    .distinct()
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("wallets as w")
            .select("w.address")
            .whereRef("w.organizationId", "=", "m.organizationId")
            .whereRef("w.userId", "=", "m.userId"),
        ),
      ),
    )
    .execute();
  for (const { organizationId, userId } of missing) await custody.provisionMemberWallet(organizationId, userId);
  return missing.length;
}

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
