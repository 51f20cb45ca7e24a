// A member's roles, replaced as a whole (the HTTP route and the CLI): the organisation always keeps an owner, and
// every member has a custody wallet of their own.
import { sql } from "kysely";
import { rolesOf } from "../auth/memberships.ts";
import { isRole, type Role } from "../auth/permissions.ts";
import type { Custody } from "../custody/custody.ts";
import type { PlatformDb } from "../db/database.ts";
import { ApiError, badRequest } from "../errors/api-error.ts";

/** Grants each role the user lacks in the organisation (keeps the others). */
export async function grantRoles(
  db: PlatformDb,
  input: { organizationId: string; userId: string; roles: readonly Role[] },
) {
  if (input.roles.length === 0) return;
  await db
    .insertInto("memberships")
    .values(input.roles.map((role) => ({ organizationId: input.organizationId, userId: input.userId, role })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Replaces a member's roles (at least one, each of ROLES). 404 ORGANIZATION_MEMBER_NOT_FOUND for a user without a
 * role in the organisation; 409 ORGANIZATION_LAST_OWNER when it would leave the organisation without an owner.
 * `authorize` sees the roles before and after, inside the change's transaction, and throws to refuse it.
 * Returns the member's custody wallet (provisioned when missing).
 */
export async function setMemberRoles(
  db: PlatformDb,
  custody: Custody,
  input: {
    organizationId: string;
    userId: string;
    roles: readonly string[];
    authorize?: (before: readonly string[], after: readonly string[]) => void;
  },
): Promise<{ wallet: string }> {
  const unknown = input.roles.filter((role) => !isRole(role));
  if (unknown.length > 0 || input.roles.length === 0) {
    const message = unknown.length > 0 ? `Unknown role ${unknown.join(", ")}` : "A member holds at least one role";
    throw badRequest(message, [{ path: "roles", message }]);
  }
  const roles = [...new Set(input.roles)];
  await db.transaction().execute(async (trx) => {
    // One roles change per organisation at a time, so two owners cannot each remove the other's owner role.
    await sql`select pg_advisory_xact_lock(hashtext(${`memberships:${input.organizationId}`}))`.execute(trx);
    const held = await rolesOf(trx, input.userId, input.organizationId);
    if (held.length === 0) throw new ApiError("ORGANIZATION_MEMBER_NOT_FOUND");
    input.authorize?.(held, roles);
    if (held.includes("owner") && !roles.includes("owner")) {
      const others = await trx
        .selectFrom("memberships")
        .select("userId")
        .where("organizationId", "=", input.organizationId)
        .where("role", "=", "owner")
        .where("userId", "<>", input.userId)
        .executeTakeFirst();
      if (!others) throw new ApiError("ORGANIZATION_LAST_OWNER");
    }
    await trx
      .deleteFrom("memberships")
      .where("organizationId", "=", input.organizationId)
      .where("userId", "=", input.userId)
      .where("role", "not in", roles)
      .execute();
    await grantRoles(trx, { organizationId: input.organizationId, userId: input.userId, roles: roles as Role[] });
  });
  return { wallet: await custody.provisionMemberWallet(input.organizationId, input.userId) };
}
