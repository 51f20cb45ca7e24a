// Who belongs to an organisation, with which roles: the one place those questions are asked of the database.
import type { PlatformDb } from "../db/database.ts";

export async function rolesOf(db: PlatformDb, userId: string, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("memberships")
    .select("role")
    .where("userId", "=", userId)
    .where("organizationId", "=", organizationId)
    .execute();
  return rows.map((r) => r.role);
}

/** The user's platform-level roles (host/auth/platform-roles.ts); none for an unknown user. */
export async function platformRolesOf(db: PlatformDb, userId: string): Promise<string[]> {
  const row = await db.selectFrom("users").select("platformRoles").where("id", "=", userId).executeTakeFirst();
  return row?.platformRoles ?? [];
}

export async function isMember(db: PlatformDb, organizationId: string, userId: string): Promise<boolean> {
  return (await rolesOf(db, userId, organizationId)).length > 0;
}
