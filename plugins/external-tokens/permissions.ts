// The permissions of external tokens, with the organisation roles that grant each (reads use token:read).
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "externalToken:register": ["owner", "admin", "tokenManager"],
  /** Allowances from the organisation's wallets on a registered external token (e.g. an add-on's payment asset). */
  "externalToken:approve": ["owner", "admin", "tokenManager", "supplyManager"],
} as const satisfies Record<string, readonly Role[]>;
