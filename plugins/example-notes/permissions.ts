// The example plugin's permissions, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "exampleNote:write": ["owner", "admin"],
  "exampleNote:read": ROLES,
} as const satisfies Record<string, readonly Role[]>;
