// The permissions of system statistics, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** The system's statistics: counts only, no identity or claim in person. */
  "systemStats:read": ROLES,
} as const satisfies Record<string, readonly Role[]>;
