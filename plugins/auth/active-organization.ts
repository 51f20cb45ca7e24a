// The organisation a new session acts in: the one asked for (the person must be a member of it), else the first of
// theirs, else none.
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";

export async function activeOrganization(db: PlatformDb, userId: string, requested?: string): Promise<string | null> {
  const memberships = await db
    .selectFrom("memberships")
    .select("organizationId")
    .where("userId", "=", userId)
    .execute();
  return chooseOrganization(
    memberships.map((m) => m.organizationId),
    requested,
  );
}

/** `memberOf` in membership order, repeats allowed. */
export function chooseOrganization(memberOf: string[], requested?: string): string | null {
  const orgs = [...new Set(memberOf)];
  if (requested) {
    if (!orgs.includes(requested))
      throw new ApiError("ACTIVE_ORGANIZATION_REQUIRED", { message: "You are not a member of that organisation" });
    return requested;
  }
  return orgs[0] ?? null;
}
