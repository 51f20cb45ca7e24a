// The permissions of an organisation's system and its operation, with the organisation roles that grant each.
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "monitoring:read": ["owner", "admin"],
  "system:operate": ["owner", "systemManager"],
  "organization:settings": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;
