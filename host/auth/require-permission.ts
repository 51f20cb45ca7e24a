// The one middleware that checks the permissions table: 403 USER_NOT_AUTHORIZED naming the roles that would do.
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "../http/env.ts";
import { hasPermission, type Permission, rolesGranting } from "./permissions.ts";

export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!hasPermission(c.get("principal").roles, permission)) {
      throw new ApiError("USER_NOT_AUTHORIZED", {
        message: `This operation needs the ${permission} permission`,
        details: { requiredPermission: permission, requiredRoles: rolesGranting(permission) },
      });
    }
    await next();
  };
}
