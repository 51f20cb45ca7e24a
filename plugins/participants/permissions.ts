// The permissions of participants, with the organisation roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** The participant directory: everyone sees assets and addons; people, the organisation and claim issuers need userSearch. */
  "participant:read": ROLES,
  userSearch: ["owner", "admin", "identityManager", "claimIssuer", "systemManager"],
  /** Every role held on the system and its tokens, and another participant's (one's own needs participant:read). */
  "roleAssignment:read": ["owner", "admin", "systemManager", "identityManager", "claimIssuer", "auditor"],
} as const satisfies Record<string, readonly Role[]>;
