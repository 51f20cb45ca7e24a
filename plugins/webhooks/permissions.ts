// The webhooks plugin's permission, with the organisation roles that grant it.
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "webhooks:manage": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;
