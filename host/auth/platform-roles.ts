// Platform-level roles: held by a user across the whole platform (users.platform_roles), never through an
// organisation. The platform operator runs what every organisation shares (the worker processes all jobs run on);
// no organisation role grants a platform permission, so one tenant's owner cannot operate another's infrastructure.
export const PLATFORM_ROLES = ["platformOperator"] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

/** The permissions only a platform role grants. */
export const PLATFORM_PERMISSIONS = {
  "platform:operate": ["platformOperator"],
} as const satisfies Record<string, readonly PlatformRole[]>;
export type PlatformPermission = keyof typeof PLATFORM_PERMISSIONS;

export function isPlatformPermission(permission: string): permission is PlatformPermission {
  return Object.hasOwn(PLATFORM_PERMISSIONS, permission);
}

export function isPlatformRole(value: string): value is PlatformRole {
  return (PLATFORM_ROLES as readonly string[]).includes(value);
}
