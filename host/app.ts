// The Hono host: shared middleware, then every plugin's routes, then the OpenAPI document.
import { OpenAPIHono, type OpenAPIHonoOptions } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { authenticate, type KeyRow } from "./auth/authenticate.ts";
import { createCredentialFailures } from "./auth/credential-failures.ts";
import { createLastUsedRecorder, lastUsedWriter } from "./auth/last-used.ts";
import { lockoutPolicies } from "./auth/lockout-policies.ts";
import { createRateWindow } from "./auth/rate-limit.ts";
import { createIndexedReads, indexVersionReader } from "./cache/indexed-reads.ts";
import { createShortCache } from "./cache/short-cache.ts";
import type { PlatformChanges } from "./db/platform-changes.ts";
import { ApiError } from "./errors/api-error.ts";
import { allowedMethods, type RouteEntry } from "./http/allowed-methods.ts";
import { clientAddress } from "./http/client-address.ts";
import { closeUnreadBodies } from "./http/close-unread-bodies.ts";
import { contextHeaders } from "./http/context-headers.ts";
import type { AppEnv } from "./http/env.ts";
import { errorResponse, handleError } from "./http/error-handler.ts";
import { hasBody } from "./http/has-body.ts";
import { recordRequests } from "./http/record-requests.ts";
import { rejectMalformedText } from "./http/reject-malformed-text.ts";
import { requestId } from "./http/request-id.ts";
import { sameOriginGuard } from "./http/same-origin.ts";
import { uploadAllowance } from "./http/upload-body.ts";
import { validationError } from "./http/validation.ts";
import { createIndexGate, platformProbes } from "./index-gate.ts";
import { isPublicDocPath, mountApiDocs } from "./openapi/index.ts";
import { documentRoutePermissions } from "./openapi/route-permissions.ts";
import type { HostContext } from "./plugin.ts";
import { type ComposedPlugins, pluginContext } from "./plugin-host.ts";
import { type Readiness, readinessRoutes } from "./readiness.ts";
import { type MountedRoute, routeOverlap } from "./route-overlap.ts";
import { isRpcPath } from "./rpc/path.ts";
import { mountRpc } from "./rpc/transport.ts";

/**
 * Request bodies above this are refused with 413 PAYLOAD_TOO_LARGE before they are read whole; a route that takes a
 * file declares its own size (host/http/upload-body.ts).
 */
const MAX_BODY_BYTES = 1024 * 1024;

/** How long a cached API key or chain row may serve at most, should a change notification be lost. */
const CACHE_TTL_MS = 5000;
const CACHE_MAX_ENTRIES = 10_000;

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
  const cache = <V>() =>
    changes ? createShortCache<V>(changes, { ttlMs: CACHE_TTL_MS, max: CACHE_MAX_ENTRIES }) : undefined;
  const chainRows = cache<unknown>();
  const participantRows = cache<unknown>();
  const organizationRows = cache<unknown>();
  const indexedReads =
    ctx.config.READ_CACHE_ENTRIES > 0
      ? createIndexedReads(
          indexVersionReader(ctx.db.pool, ctx.config.INDEX_VIEWS_SCHEMA),
          ctx.config.READ_CACHE_ENTRIES,
        )
      : undefined;
  const indexGate = createIndexGate(platformProbes(ctx));
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestId);
  // Outermost after the id: it sees every /api answer, auth failures and errors included, and their whole duration.
  // Procedures are their own route templates; any other /api/rpc path is unmatched (a bounded metrics label).
  const procedurePaths = new Set<string>();
  const rpcTemplate = (path: string) => (procedurePaths.has(path) ? path : null);
  app.use("*", recordRequests(composed.requestObservers(ctx), ctx.config.TRUST_PROXY, rpcTemplate));
  app.use("*", closeUnreadBodies);
  const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
  const limitBody = (maxSize: number) => {
    let limiter = limiters.get(maxSize);
    if (!limiter) {
      const message = `The request body exceeds ${maxSize} bytes`;
      limiter = bodyLimit({
        maxSize,
        onError: () => {
          throw new ApiError("PAYLOAD_TOO_LARGE", { message, details: { maxBytes: maxSize } });
        },
      });
      limiters.set(maxSize, limiter);
    }
    return limiter;
  };
  app.use("/api/*", (c, next) => (hasBody(c) ? limitBody(uploadAllowance(c) ?? MAX_BODY_BYTES)(c, next) : next()));
  app.use("/api/*", rejectMalformedText);
  app.onError(handleError(ctx.logger));
  // The composed endpoints, read once on the first miss (every route is mounted by then).
  let endpoints: RouteEntry[] | undefined;
  app.notFound((c) => {
    endpoints ??= app.routes.filter((route) => route.method !== "ALL");
    const allow = allowedMethods(endpoints, c.req.path);
    if (allow.length > 0) {
      const message = `${c.req.method} is not allowed on ${c.req.path}; it answers ${allow.join(", ")}`;
      const headers = { Allow: allow.join(", ") };
      return errorResponse(c, new ApiError("METHOD_NOT_ALLOWED", { message, headers, details: { allow } }));
    }
    return errorResponse(c, new ApiError("NOT_FOUND", { message: `No route for ${c.req.method} ${c.req.path}` }));
  });

  readinessRoutes(app, readiness);
  // Links in v2 bodies are written /v2/...; the same paths resolve here so a client can follow them.
  app.all("/v2/*", (c) => {
    const url = new URL(c.req.url);
    url.pathname = `/api${url.pathname}`;
    const forwarded = new Request(url, c.req.raw);
    forwarded.headers.set("x-request-id", c.get("requestId")); // one request, one id
    return app.fetch(forwarded, c.env);
  });
  mountApiDocs(app, composed.webhookEvents);
  const keys = cache<KeyRow>();
  const auth = authenticate({
    db: ctx.db.platform,
    ...(keys ? { keys } : {}),
    lastUsed: createLastUsedRecorder(lastUsedWriter(ctx.db.platform)),
    rateWindow: createRateWindow(
      ctx.db.platform,
      ctx.config.API_KEY_RATE_LIMIT,
      ctx.config.API_KEY_RATE_WINDOW_SECONDS,
    ),
    failures: createCredentialFailures(ctx.db.platform, lockoutPolicies(ctx.config).credential),
    addressOf: (c) => clientAddress(c, ctx.config.TRUST_PROXY),
  });
  const context = contextHeaders({
    db: ctx.db.platform,
    servedChainIds: ctx.chains.ids,
    accountAbstractionEnabled: ctx.config.ACCOUNT_ABSTRACTION_ENABLED,
    executors: ctx.executors,
  });
  // The plugins' public paths, and the /api/rpc procedures of those routes once mounted.
  const publicPaths = new Set(composed.publicPaths);
  const sameOrigin = sameOriginGuard(ctx.config);
  app.use("/api/*", async (c, next) => {
    if (chainRows) c.set("chainRows", chainRows);
    if (participantRows) c.set("participantRows", participantRows);
    if (organizationRows) c.set("organizationRows", organizationRows);
    if (indexedReads) c.set("indexedReads", indexedReads);
    c.set("indexGate", indexGate);
    if (isPublicDocPath(c.req.path) || publicPaths.has(c.req.path)) {
      sameOrigin.publicWrite(c);
      return next();
    }
    // A procedure's REST request reads the context headers itself; the RPC request is only authenticated (no API key).
    if (isRpcPath(c.req.path))
      return auth(c, async () => {
        sameOrigin.sessionWrite(c);
        await next();
      });
    return auth(c, async () => {
      sameOrigin.sessionWrite(c);
      await context(c, next);
    });
  });

  // Each plugin's routes on a sub-app of its own, mounted at the root (its paths are absolute); no two plugins'
  // routes may match one request, so the mount order never decides who answers.
  const mounted: MountedRoute[] = [];
  for (const plugin of composed.plugins) {
    if (!plugin.routes) continue;
    const routes = documentRoutePermissions(new OpenAPIHono<AppEnv>({ defaultHook: validationHook }));
    plugin.routes(routes, pluginContext(ctx, plugin));
    for (const { method, path } of routes.routes) mounted.push({ pluginId: plugin.id, method, path });
    app.route("/", routes);
  }
  const overlap = routeOverlap(mounted);
  if (overlap) throw new Error(overlap);
  const rpc = mountRpc(app, composed.publicPaths);
  for (const path of rpc.publicPaths) publicPaths.add(path);
  for (const path of rpc.procedurePaths) procedurePaths.add(path);
  return app;
}
