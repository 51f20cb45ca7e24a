// The permissions of KYC documents, with the organisation roles that grant each.
import type { Role } from "../../host/auth/permissions.ts";

/** KYC evidence is for the people who vet identities and issue claims, and no one else. */
const VETTING_ROLES = ["identityManager", "claimIssuer"] as const satisfies readonly Role[];

export const PERMISSIONS = {
  /** List a participant's documents and download them (every download is in the request log). */
  "kycDocument:read": VETTING_ROLES,
  /** Upload and delete a participant's documents. */
  "kycDocument:write": VETTING_ROLES,
} as const satisfies Record<string, readonly Role[]>;
