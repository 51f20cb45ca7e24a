// The permissions of the contract directory, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** The system's contract catalogue (directory, addon factories): addresses any member may read. */
  "system:read": ROLES,
} as const satisfies Record<string, readonly Role[]>;
