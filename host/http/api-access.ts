// The /api/* gate: hands the request its caches and the index gate, lets the public paths through (same-origin
// checked as public writes), authenticates everything else (API key or session, same-origin checked for sessions)
// and reads the context headers of a REST request; an /api/rpc request is only authenticated (no API key).
import type { MiddlewareHandler } from "hono";
import { authenticate } from "../auth/authenticate.ts";
import { createCredentialFailures } from "../auth/credential-failures.ts";
import { createLastUsedRecorder, lastUsedWriter } from "../auth/last-used.ts";
import { lockoutPolicies } from "../auth/lockout-policies.ts";
import { createRateWindow } from "../auth/rate-limit.ts";
import type { IndexGate } from "../index-gate.ts";
import { isPublicDocPath } from "../openapi/index.ts";
import type { HostContext } from "../plugin.ts";
import { isRpcPath } from "../rpc/path.ts";
import { clientAddress } from "./client-address.ts";
import { contextHeaders } from "./context-headers.ts";
import type { AppEnv } from "./env.ts";
import type { RequestCaches } from "./request-caches.ts";
import { sameOriginGuard } from "./same-origin.ts";

/** `publicPaths`: read at each request (the /api/rpc procedures of public routes join it once mounted). */
export function apiAccess(
  ctx: HostContext,
  caches: RequestCaches,
  indexGate: IndexGate,
  publicPaths: ReadonlySet<string>,
): MiddlewareHandler<AppEnv> {
  const { chainRows, participantRows, organizationRows, indexedReads, keys } = caches;
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
  const sameOrigin = sameOriginGuard(ctx.config);
  return async (c, next) => {
    if (chainRows) c.set("chainRows", chainRows);
    if (participantRows) c.set("participantRows", participantRows);
    if (organizationRows) c.set("organizationRows", organizationRows);
    if (indexedReads) c.set("indexedReads", indexedReads);
    c.set("indexGate", indexGate);
    if (isPublicDocPath(c.req.path) || publicPaths.has(c.req.path)) {
      sameOrigin.publicWrite(c);
      return next();
    }
    // A procedure's REST request reads the context headers itself; the RPC request is only authenticated.
    if (isRpcPath(c.req.path))
      return auth(c, async () => {
        sameOrigin.sessionWrite(c);
        await next();
      });
    return auth(c, async () => {
      sameOrigin.sessionWrite(c);
      await context(c, next);
    });
  };
}
