// The permissions of sign-in and sessions, with the organisation roles that grant each.
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "session:revoke-others": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;
