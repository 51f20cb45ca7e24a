// Members and their roles (the HTTP route, the CLI and the first-start bootstrap): roles granted or replaced as a
// whole; the organisation always keeps an owner, and every member has a custody wallet of their own.
import { sql } from "kysely";
import { rolesOf } from "../../host/auth/memberships.ts";
import { isRole, type Role } from "../../host/auth/permissions.ts";
import type { Custody } from "../../host/custody/custody.ts";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError, badRequest } from "../../host/errors/api-error.ts";

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
