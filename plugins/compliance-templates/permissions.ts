// The permissions of compliance templates, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "complianceTemplate:read": ROLES,
  "complianceTemplate:manage": ["owner", "admin", "systemManager"],
} as const satisfies Record<string, readonly Role[]>;
