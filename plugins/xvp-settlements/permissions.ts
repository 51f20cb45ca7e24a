// The XvP settlement permissions with the organisation roles that grant each: reading for every member; creating,
// approving, executing and cancelling are a party's own actions, for any member who may write (as token:transfer).
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "xvpSettlement:read": ROLES,
  "xvpSettlement:write": ["owner", "admin", "tokenManager", "supplyManager"],
} as const satisfies Record<string, readonly Role[]>;
