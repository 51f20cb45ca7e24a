// Who may call which bundler methods. Reads (chain id, EntryPoints, gas estimates, lookups) are any member's;
// sending a UserOperation queues a chain write of the organisation's bundler wallet, which a read-only role
// (auditor) may not cause; the debug_bundler_ methods reach the whole chain's mempool (owner and admin).
import { ROLES, type Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "bundler:read": ROLES,
  "bundler:send": ROLES.filter((role) => role !== "auditor"),
  "bundler:debug": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;

export type BundlerPermission = keyof typeof PERMISSIONS;
