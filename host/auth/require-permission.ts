// The one check of the permissions table: 403 USER_NOT_AUTHORIZED naming the roles that would do.
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "../http/env.ts";
import { hasPermission, type Permission, rolesGranting } from "./permissions.ts";

/** Throws USER_NOT_AUTHORIZED unless `roles` grant `permission` (for checks that depend on the request's content). */
export function assertPermission(roles: readonly string[], permission: Permission): void {
  if (!hasPermission(roles, permission)) {
    throw new ApiError("USER_NOT_AUTHORIZED", {
      message: `This operation needs the ${permission} permission`,
      details: { requiredPermission: permission, requiredRoles: rolesGranting(permission) },
    });
  }
}

export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    assertPermission(c.get("principal").roles, permission);
    await next();
  };
}
