// The permissions of fixed yield schedules: reads for every role, the issuer's management (create, top up,
// withdraw) for token managers, a holder's own claim for every member who may write.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "fixedYieldSchedule:read": ROLES,
  "fixedYieldSchedule:manage": ["owner", "admin", "tokenManager"],
  "fixedYieldSchedule:claim": ROLES.filter((role) => role !== "auditor"),
} as const satisfies Record<string, readonly Role[]>;
