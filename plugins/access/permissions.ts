// The permissions of API keys and the organisation's members, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** Your own API keys (create, list, revoke); a key never has more scope or a later expiry than its creator's key. */
  "apiKey:manage": ROLES,
  /** Every API key of the organisation: list and revoke other members' keys. */
  "apiKey:manage-others": ["owner", "admin"],
  /** The organisation's members with their roles. */
  "organization:members:read": ["owner", "admin"],
  /** Replacing a member's roles (owner excepted, see organization:owners:manage). */
  "organization:members:manage": ["owner", "admin"],
  /** Granting or removing the owner role. */
  "organization:owners:manage": ["owner"],
} as const satisfies Record<string, readonly Role[]>;
