// An unmatched request: 405 METHOD_NOT_ALLOWED with Allow when the path answers other methods, else 404 NOT_FOUND.
import type { Context, Hono } from "hono";
import { ApiError } from "../errors/api-error.ts";
import { allowedMethods, type RouteEntry } from "./allowed-methods.ts";
import type { AppEnv } from "./env.ts";
import { errorResponse } from "./error-handler.ts";

export function notFoundHandler(app: Hono<AppEnv>) {
  // The composed endpoints, read once on the first miss (every route is mounted by then).
  let endpoints: RouteEntry[] | undefined;
  return (c: Context<AppEnv>) => {
    endpoints ??= app.routes.filter((route) => route.method !== "ALL");
    const allow = allowedMethods(endpoints, c.req.path);
    if (allow.length > 0) {
      const message = `${c.req.method} is not allowed on ${c.req.path}; it answers ${allow.join(", ")}`;
      const headers = { Allow: allow.join(", ") };
      return errorResponse(c, new ApiError("METHOD_NOT_ALLOWED", { message, headers, details: { allow } }));
    }
    return errorResponse(c, new ApiError("NOT_FOUND", { message: `No route for ${c.req.method} ${c.req.path}` }));
  };
}
