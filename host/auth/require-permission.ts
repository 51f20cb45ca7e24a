// The one check of the permissions table: 403 USER_NOT_AUTHORIZED naming the roles that would do.
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors/api-error.ts";
import type { ErrorCode } from "../errors/registry.ts";
import type { AppEnv } from "../http/env.ts";
import { grantingRoles, isGranted, type Permission } from "./permissions.ts";

/**
 * Throws USER_NOT_AUTHORIZED (or the route family's own refusal the spec names, e.g. OFFCHAIN_USER_PERMISSION_REQUIRED)
 * unless `roles` (organisation) or `platformRoles` grant `permission` (also for checks that depend on the request's
 * content).
 */
export function assertPermission(
  roles: readonly string[],
  permission: Permission,
  refusal: ErrorCode = "USER_NOT_AUTHORIZED",
  platformRoles: readonly string[] = [],
): void {
  if (!isGranted(roles, platformRoles, permission)) {
    throw new ApiError(refusal, {
      message: `This operation needs the ${permission} permission`,
      details: { requiredPermission: permission, requiredRoles: grantingRoles(permission) },
    });
  }
}

/** The middleware carries its permission (`requiredPermission`) so the API document can state it. */
export function requirePermission(
  permission: Permission,
  refusal?: ErrorCode,
): MiddlewareHandler<AppEnv> & { requiredPermission: Permission } {
  const check: MiddlewareHandler<AppEnv> = async (c, next) => {
    const { roles, platformRoles } = c.get("principal");
    assertPermission(roles, permission, refusal, platformRoles);
    await next();
  };
  return Object.assign(check, { requiredPermission: permission });
}
