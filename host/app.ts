// The Hono host: shared middleware, then every plugin's routes, then the OpenAPI document.
import { OpenAPIHono, type OpenAPIHonoOptions } from "@hono/zod-openapi";
import { endChainDeadlines } from "./chain/chain-unavailable.ts";
import type { PlatformChanges } from "./db/platform-changes.ts";
import { apiAccess } from "./http/api-access.ts";
import { bodyLimits } from "./http/body-limits.ts";
import { closeUnreadBodies } from "./http/close-unread-bodies.ts";
import type { AppEnv } from "./http/env.ts";
import { errorResponse, handleError } from "./http/error-handler.ts";
import { mountPluginRoutes } from "./http/mount-plugin-routes.ts";
import { notFoundHandler } from "./http/not-found.ts";
import { recordRequests } from "./http/record-requests.ts";
import { rejectMalformedText } from "./http/reject-malformed-text.ts";
import { requestCaches } from "./http/request-caches.ts";
import { requestId } from "./http/request-id.ts";
import { followV2Links } from "./http/v2-links.ts";
import { validationError } from "./http/validation.ts";
import { createIndexGate, platformProbes } from "./index-gate.ts";
import { mountApiDocs } from "./openapi/index.ts";
import type { HostContext } from "./plugin.ts";
import type { ComposedPlugins } from "./plugin-host.ts";
import { type Readiness, readinessRoutes } from "./readiness.ts";
import { mountRpc } from "./rpc/transport.ts";

/**
 * Request bodies above this are refused with 413 PAYLOAD_TOO_LARGE before they are read whole; a route that takes a
 * file declares its own size (host/http/upload-body.ts).
 */
const MAX_BODY_BYTES = 1024 * 1024;

/** A request that fails its route's schema answers 400 in the spec's envelope. */
const validationHook: OpenAPIHonoOptions<AppEnv>["defaultHook"] = (result, c) => {
  if (!result.success) return errorResponse(c, validationError(result.error, result.target));
};

/** `changes`: the platform change listener that keeps the short caches honest; without it nothing is cached. */
export function createApp(
  ctx: HostContext,
  composed: ComposedPlugins,
  readiness: Readiness,
  changes?: PlatformChanges,
) {
  const caches = requestCaches(ctx, changes);
  const indexGate = createIndexGate(platformProbes(ctx));
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestId);
  // Outermost after the id: it sees every /api answer, auth failures and errors included, and their whole duration.
  // Procedures are their own route templates; any other /api/rpc path is unmatched (a bounded metrics label).
  const procedurePaths = new Set<string>();
  const rpcTemplate = (path: string) => (procedurePaths.has(path) ? path : null);
  app.use("*", recordRequests(composed.requestObservers(ctx), ctx.config.TRUST_PROXY, rpcTemplate));
  app.use("*", closeUnreadBodies);
  app.use("/api/*", endChainDeadlines);
  app.use("/api/*", bodyLimits(MAX_BODY_BYTES));
  app.use("/api/*", rejectMalformedText);
  app.onError(handleError(ctx.logger));
  app.notFound(notFoundHandler(app));

  readinessRoutes(app, readiness);
  followV2Links(app);
  mountApiDocs(app, composed.webhookEvents);
  // The plugins' public paths, and the /api/rpc procedures of those routes once mounted.
  const publicPaths = new Set(composed.publicPaths);
  app.use("/api/*", apiAccess(ctx, caches, indexGate, publicPaths));
  mountPluginRoutes(app, ctx, composed.plugins, validationHook);
  const rpc = mountRpc(app, composed.publicPaths);
  for (const path of rpc.publicPaths) publicPaths.add(path);
  for (const path of rpc.procedurePaths) procedurePaths.add(path);
  return app;
}
