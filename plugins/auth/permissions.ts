// The permissions of sign-in and sessions, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** The caller's own live sessions: every member. */
  "session:read": ROLES,
  /** The organisation's members' live sessions too. */
  "session:read-others": ["owner", "admin"],
  "session:revoke-others": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;
