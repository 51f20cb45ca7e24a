// Granting and revoking platform-level roles (host/auth/platform-roles.ts): only the CLI and the first start do, never
// an API route, so no organisation's credentials can make anyone a platform operator.
import { sql } from "kysely";
import type { PlatformRole } from "../../host/auth/platform-roles.ts";
import type { PlatformDb } from "../../host/db/database.ts";

export interface PlatformRoleHolder {
  userId: string;
  email: string;
  platformRoles: string[];
}

async function setRoles(db: PlatformDb, userId: string, roles: (held: string[]) => string[]) {
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "platformRoles"])
    .where("id", "=", userId)
    .forUpdate()
    .executeTakeFirst();
  if (!user) throw new Error(`No user ${userId}`);
  const platformRoles = roles(user.platformRoles);
  await db.updateTable("users").set({ platformRoles }).where("id", "=", userId).execute();
  return { userId, email: user.email, platformRoles };
}

export async function grantPlatformRole(db: PlatformDb, userId: string, role: PlatformRole) {
  return db
    .transaction()
    .execute((trx) => setRoles(trx, userId, (held) => (held.includes(role) ? held : [...held, role])));
}

/** Refuses to revoke the role from its last holder: the shared workers would have no one to operate them. */
export async function revokePlatformRole(db: PlatformDb, userId: string, role: PlatformRole) {
  return db.transaction().execute(async (trx) => {
    // One revocation at a time, so two concurrent ones cannot each leave the other as the last holder.
    await sql`select pg_advisory_xact_lock(hashtext(${`platform-role:${role}`}))`.execute(trx);
    const holders = await platformRoleHolders(trx, role);
    if (holders.length === 1 && holders[0].userId === userId) {
      throw new Error(`${userId} is the last ${role}: grant the role to another user first`);
    }
    return setRoles(trx, userId, (held) => held.filter((r) => r !== role));
  });
}

export async function platformRoleHolders(db: PlatformDb, role: PlatformRole): Promise<PlatformRoleHolder[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "email", "platformRoles"])
    .where(sql<boolean>`${role} = any(platform_roles)`)
    .orderBy("createdAt")
    .execute();
  return rows.map((row) => ({ userId: row.id, email: row.email, platformRoles: row.platformRoles }));
}
