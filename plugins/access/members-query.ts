// The organisation's members, one row per person: roles (in the permission table's order), when they joined, their
// custody wallet. A select the collection engine filters, sorts and pages.
import { sql } from "kysely";
import { ROLES } from "../../host/auth/permissions.ts";
import type { PlatformDb } from "../../host/db/database.ts";

export function membersOf(db: PlatformDb, organizationId: string) {
  const grouped = db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .where("m.organizationId", "=", organizationId)
    .groupBy(["m.organizationId", "m.userId", "u.email", "u.displayName"])
    .select(["m.userId", "u.email", "u.displayName"])
    .select([
      sql<string[]>`array_agg(m.role order by array_position(cast(${[...ROLES]} as text[]), m.role))`.as("roles"),
      sql<Date>`min(m.created_at)`.as("joinedAt"),
      sql<string | null>`(select w.address from platform.wallets w
        where w.organization_id = m.organization_id and w.user_id = m.user_id order by w.created_at limit 1)`.as(
        "wallet",
      ),
    ]);
  return db.selectFrom(grouped.as("members")).selectAll();
}

export function toMember(row: {
  userId: string;
  email: string;
  displayName: string;
  roles: string[];
  joinedAt: Date;
  wallet: string | null;
}) {
  return { ...row, roles: row.roles as (typeof ROLES)[number][], joinedAt: row.joinedAt.toISOString() };
}
