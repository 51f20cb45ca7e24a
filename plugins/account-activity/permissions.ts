// The permissions of activity feeds, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** Reaching an activity feed; what it shows depends on whose it is (see activity:read-others). */
  "activity:read": ROLES,
  "activity:read-others": ["identityManager", "claimIssuer"],
  /** The account feeds of the organisation's bundler wallet and paymasters (spec: account activity). */
  "activity:read-gas-accounts": ["admin", "systemManager", "auditor", "gasManager"],
} as const satisfies Record<string, readonly Role[]>;
