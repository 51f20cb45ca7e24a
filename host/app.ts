// The Hono host: shared middleware, then every plugin's routes, then the OpenAPI document.
import { OpenAPIHono } from "@hono/zod-openapi";
import { authenticate } from "./auth/authenticate.ts";
import { ApiError } from "./errors/api-error.ts";
import type { AppEnv } from "./http/env.ts";
import { errorResponse, handleError } from "./http/error-handler.ts";
import { requestId } from "./http/request-id.ts";
import { validationError } from "./http/validation.ts";
import type { Plugin, PluginContext } from "./plugin.ts";
import { type Readiness, readinessRoutes } from "./readiness.ts";

export function createApp(ctx: PluginContext, plugins: Plugin[], readiness: Readiness) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return errorResponse(c, validationError(result.error, result.target));
    },
  });
  app.use("*", requestId);
  app.onError(handleError(ctx.logger));
  app.notFound((c) =>
    errorResponse(c, new ApiError("NOT_FOUND", { message: `No route for ${c.req.method} ${c.req.path}` })),
  );

  readinessRoutes(app, readiness);
  app.get("/api", (c) => c.redirect("/api/v2", 301));
  // Links in v2 bodies are written /v2/...; the same paths resolve here so a client can follow them.
  app.all("/v2/*", (c) => {
    const url = new URL(c.req.url);
    url.pathname = `/api${url.pathname}`;
    return app.fetch(new Request(url, c.req.raw), c.env);
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "X-Api-Key",
  });
  app.doc31("/api/v2/spec.json", {
    openapi: "3.1.0",
    info: { title: "Asset Platform API", version: "2.0.0" },
    security: [{ ApiKey: [] }],
  });
  app.use("/api/*", async (c, next) => {
    if (c.req.path === "/api/v2/spec.json") return next();
    return authenticate(ctx.db.platform)(c, next);
  });

  for (const plugin of plugins) plugin.routes?.(app, { ...ctx, logger: ctx.logger.child({ plugin: plugin.id }) });
  return app;
}
