// The one check of the permissions table: 403 USER_NOT_AUTHORIZED naming the roles that would do.
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors/api-error.ts";
import type { ErrorCode } from "../errors/registry.ts";
import type { AppEnv } from "../http/env.ts";
import { hasPermission, type Permission, rolesGranting } from "./permissions.ts";

/**
 * Throws USER_NOT_AUTHORIZED (or the route family's own refusal the spec names, e.g. OFFCHAIN_USER_PERMISSION_REQUIRED)
 * unless `roles` grant `permission` (also for checks that depend on the request's content).
 */
export function assertPermission(
  roles: readonly string[],
  permission: Permission,
  refusal: ErrorCode = "USER_NOT_AUTHORIZED",
): void {
  if (!hasPermission(roles, permission)) {
    throw new ApiError(refusal, {
      message: `This operation needs the ${permission} permission`,
      details: { requiredPermission: permission, requiredRoles: rolesGranting(permission) },
    });
  }
}

/** The middleware carries its permission (`requiredPermission`) so the API document can state it. */
export function requirePermission(
  permission: Permission,
  refusal?: ErrorCode,
): MiddlewareHandler<AppEnv> & { requiredPermission: Permission } {
  const check: MiddlewareHandler<AppEnv> = async (c, next) => {
    assertPermission(c.get("principal").roles, permission, refusal);
    await next();
  };
  return Object.assign(check, { requiredPermission: permission });
}
