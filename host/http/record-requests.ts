// Tells the plugins' request observers (host/plugin.ts `requestObservers`) of every finished /api request: what was
// asked, by whom, how it ended and how long it took. Cheap on the request path: the JSON the route answered with is
// kept by reference (c.json is wrapped), bodies are neither copied nor redacted here; the observer does that later.
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { RequestObserver, RequestRecord } from "../plugin.ts";
import { isRpcPath } from "../rpc/path.ts";
import { clientAddress } from "./client-address.ts";
import type { AppEnv } from "./env.ts";

/** Hono's `/api/v2/tokens/:tokenAddress{regex}` → the spec's `/api/v2/tokens/{tokenAddress}`. */
export function specTemplate(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

/**
 * The route that answered: the handler that responded, or when a middleware answered first (auth, a permission), the
 * first route after it (middleware registers as ALL; a route's own middleware carries its method and path).
 */
function routeTemplate(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string | null {
  const routes = matchedRoutes(c);
  for (let i = c.req.routeIndex; i < routes.length; i++) {
    const route = routes[i]!;
    if (route.method !== "ALL") return specTemplate(route.path);
  }
  return null;
}

/** The error envelope's code, message and details (Form A: `code`, `message`, `data`; Form B: `error`). */
function failureOf(body: unknown): RequestRecord["failure"] {
  if (!body || typeof body !== "object") return { code: null, message: null, details: null };
  const b = body as Record<string, unknown>;
  if (b.error && typeof b.error === "object") {
    const e = b.error as Record<string, unknown>;
    return { code: str(e.id) ?? str(e.code), message: str(e.message), details: e };
  }
  return { code: str(b.code), message: str(b.message), details: b.data ?? null };
}
const sizeOf = (length: string | null | undefined) => (length && /^\d+$/.test(length) ? Number(length) : null);
const str = (v: unknown) => (typeof v === "string" ? v : null);

/**
 * `rpcTemplate`: a procedure's path is its own template; any other /api/rpc path is unmatched (null), so that
 * a made-up procedure name never becomes a label or a template of its own.
 */
export function recordRequests(
  observers: RequestObserver[],
  trustedProxies: number,
  rpcTemplate: (path: string) => string | null = () => null,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    // /v2/* is forwarded to /api/v2/* through app.fetch: the forwarded request is the one recorded.
    if (observers.length === 0 || !path.startsWith("/api/")) return next();
    // A procedure's REST request: the /api/rpc request that made it is the one recorded.
    if (c.env?.rpcInner) return next();
    const rpc = isRpcPath(path);
    const requestedAt = new Date();
    const started = performance.now();
    let responseBody: unknown;
    let responseSize: number | null = null;
    // Hono's own c.json, serialising once: the record keeps the value and the size of its text.
    c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => {
      const text = JSON.stringify(object);
      responseBody = object;
      responseSize = Buffer.byteLength(text);
      const body = c.body as (text: string, arg?: number | ResponseInit, headers?: object) => Response;
      return body(text, arg, { "Content-Type": "application/json", ...headers });
    }) as unknown as typeof c.json;
    try {
      await next();
    } finally {
      const durationMs = performance.now() - started;
      const principal = c.get("principal");
      const status = c.res.status;
      const length = c.req.header("content-length");
      const cache = c.req.bodyCache;
      const record: RequestRecord = {
        method: c.req.method,
        url: c.req.url.slice(c.req.url.indexOf(path)),
        // A procedure's path names no ids: it is its own template.
        routeTemplate: rpc ? rpcTemplate(path) : routeTemplate(c),
        requestType: rpc ? "rpc" : "rest",
        statusCode: status,
        durationMs,
        requestedAt,
        ...(principal
          ? {
              caller: {
                kind: principal.kind,
                organizationId: principal.organizationId,
                userId: principal.userId,
                ...(principal.apiKeyId ? { apiKeyId: principal.apiKeyId } : {}),
              },
            }
          : {}),
        clientAddress: clientAddress(c, trustedProxies),
        userAgent: c.req.header("user-agent") ?? null,
        traceId: c.get("requestId"),
        idempotencyKey: c.req.header("idempotency-key") ?? c.res.headers.get("idempotency-key") ?? null,
        requestHeaders: c.req.raw.headers,
        responseHeaders: c.res.headers,
        // Only what the route already read: reading an unread body here could wait on a slow client.
        requestBody: async () => (await (cache.json ?? cache.text)) as unknown,
        responseBody,
        responseSize: responseSize ?? sizeOf(c.res.headers.get("content-length")),
        requestSize: sizeOf(length),
        ...(status >= 400 ? { failure: failureOf(responseBody) } : {}),
      };
      for (const observe of observers) {
        try {
          observe(record);
        } catch {
          // an observer's fault never fails the request
        }
      }
    }
  };
}
