// The permissions of tokens (templates, creation, reads, features and supply operations), with the organisation
// roles that grant each.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "token:read": ROLES,
  "token:create": ["owner", "admin", "tokenManager"],
  "token:mint": ["owner", "admin", "tokenManager", "supplyManager"],
  "token:burn": ["owner", "admin", "tokenManager", "supplyManager"],
  /** Moving the organisation's own holdings (transfers from its signer wallet, relaying a holder's permit). */
  "token:transfer": ["owner", "admin", "tokenManager", "supplyManager"],
  /** Custodian operations: forced transfers, address and partial freezes. */
  "token:custody": ["owner", "admin", "tokenManager"],
  /** Emergency: pause and unpause. */
  "token:pause": ["owner", "admin", "tokenManager"],
  "token:governance": ["owner", "admin", "tokenManager"],
  "tokenTemplate:manage": ["owner", "admin", "tokenManager"],
} as const satisfies Record<string, readonly Role[]>;
