// The roles-and-permissions table, held as data: which organisation roles grant which permission.
// The spec's table names the roles; a permission is what one middleware checks per route. The host core declares
// the permissions its own mechanics check; each plugin declares its own (`definePlugin({ permissions })`),
// registered at start (host/plugin-host.ts).
import { createNameRegistry } from "../name-registry.ts";
import { isPlatformPermission, PLATFORM_PERMISSIONS, type PlatformRole } from "./platform-roles.ts";

export const ROLES = [
  "owner",
  "admin",
  "systemManager",
  "tokenManager",
  "supplyManager",
  "identityManager",
  "claimIssuer",
  "auditor",
  "gasManager",
  "custodian",
  "member",
] as const;
export type Role = (typeof ROLES)[number];

/** The permissions the host's own mechanics check (context headers); each plugin declares its own. */
export const CORE_PERMISSIONS = {
  "participant:act-for-others": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;

/** A permission the core or a registered plugin declares (string-typed; scripts/declared-names.test.ts checks the literals). */
export type Permission = string;

const registry = createNameRegistry<readonly Role[]>("permission", CORE_PERMISSIONS);

/** Adds the composed plugins' permissions (once per process, by registerPlugins). */
export const registerPermissions = registry.register;

/** The whole table: the core's permissions, then the plugins'. */
export const registeredPermissions = registry.entries;

/** The roles granting a permission; an unregistered permission throws a plain Error naming it. */
export function rolesGranting(permission: Permission): readonly Role[] {
  return registry.get(permission);
}

/** Whether organisation roles grant it: never a platform permission (host/auth/platform-roles.ts). */
export function hasPermission(roles: readonly string[], permission: Permission): boolean {
  if (isPlatformPermission(permission)) return false;
  return rolesGranting(permission).some((role) => roles.includes(role));
}

/** The roles that grant a permission: organisation roles, or for a platform permission the platform roles. */
export function grantingRoles(permission: Permission): readonly (Role | PlatformRole)[] {
  return isPlatformPermission(permission) ? PLATFORM_PERMISSIONS[permission] : rolesGranting(permission);
}

/** Whether a caller with these organisation and platform roles holds the permission. */
export function isGranted(roles: readonly string[], platformRoles: readonly string[], permission: Permission): boolean {
  if (isPlatformPermission(permission))
    return PLATFORM_PERMISSIONS[permission].some((role) => platformRoles.includes(role));
  return hasPermission(roles, permission);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
