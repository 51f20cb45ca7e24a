// The permissions of transaction requests, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "transaction:read": ROLES,
  /** Cancelling another person's queued chain write (anyone may cancel their own). */
  "transaction:cancel-others": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;
