// Each plugin's routes on a sub-app of its own, mounted at the root (its paths are absolute); no two plugins' routes
// may match one request, so the mount order never decides who answers (refused at start otherwise).
import { OpenAPIHono, type OpenAPIHonoOptions } from "@hono/zod-openapi";
import { documentRoutePermissions } from "../openapi/route-permissions.ts";
import type { HostContext } from "../plugin.ts";
import { type ComposedPlugins, pluginContext } from "../plugin-host.ts";
import { type MountedRoute, routeOverlap } from "../route-overlap.ts";
import type { AppEnv } from "./env.ts";

export function mountPluginRoutes(
  app: OpenAPIHono<AppEnv>,
  ctx: HostContext,
  plugins: ComposedPlugins["plugins"],
  defaultHook: OpenAPIHonoOptions<AppEnv>["defaultHook"],
): void {
  const mounted: MountedRoute[] = [];
  for (const plugin of plugins) {
    if (!plugin.routes) continue;
    const routes = documentRoutePermissions(new OpenAPIHono<AppEnv>({ defaultHook }));
    plugin.routes(routes, pluginContext(ctx, plugin));
    for (const { method, path } of routes.routes) mounted.push({ pluginId: plugin.id, method, path });
    app.route("/", routes);
  }
  const overlap = routeOverlap(mounted);
  if (overlap) throw new Error(overlap);
}
