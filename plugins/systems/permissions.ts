// The permissions of an organisation's system and its operation, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** Any member: the organisation's settings (executor policy) and its deployment's progress. */
  "organization:read": ROLES,
  "monitoring:read": ["owner", "admin"],
  "organization:settings": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;
