// States each route's permission in the API document: a route whose middleware includes requirePermission(...) gets
// the extension `x-permission` on its operation, from which its description names the permission.
import type { App } from "../http/env.ts";

export const PERMISSION_EXTENSION = "x-permission";

type RouteConfig = Parameters<App["openapi"]>[0];

function requiredPermission(route: RouteConfig): string | undefined {
  const middleware = [route.middleware ?? []].flat() as { requiredPermission?: string }[];
  return middleware.find((handler) => typeof handler.requiredPermission === "string")?.requiredPermission;
}

/** Makes `app.openapi(route, ...)` register the route with its permission stated; returns the app. */
export function documentRoutePermissions(app: App): App {
  const register = app.openapi.bind(app);
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) => {
    const permission = requiredPermission(route);
    const stated = permission ? { ...route, [PERMISSION_EXTENSION]: permission } : route;
    return (register as (...args: unknown[]) => unknown)(stated, ...rest);
  }) as App["openapi"];
  return app;
}
