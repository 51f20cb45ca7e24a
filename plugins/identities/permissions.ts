// The permissions of identities and claims, with the organisation roles that grant each.
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "identity:read": ["identityManager", "systemManager", "claimIssuer"],
  "identity:manage": ["owner", "admin", "identityManager"],
  /** Issue, change, remove and revoke claims as the organisation's claim issuer. */
  "claim:issue": ["owner", "admin", "claimIssuer"],
  /** Trusted issuers and topic schemes (the chain's CLAIM_POLICY_MANAGER_ROLE). */
  "claimPolicy:manage": ["owner", "admin", "systemManager"],
} as const satisfies Record<string, readonly Role[]>;
