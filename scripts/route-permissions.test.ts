// Every route the platform serves declares the permission it needs (requirePermission / a collection's `permission`,
// stated as the operation's x-permission), except the public and self-service routes listed below with their reason.
// Walks the whole composed app, offline: the OpenAPI registry (REST /api/v1 and /api/v2), the /api/rpc procedures
// (each runs its REST route, permission included) and the routes outside the document.
import { beforeAll, describe, expect, it } from "vitest";
import type { App } from "../host/http/env.ts";
import { PERMISSION_EXTENSION } from "../host/openapi/route-permissions.ts";
import { type RegisteredRoute, rpcProcedures } from "../host/rpc/procedures.ts";
import { withOfflineApp } from "./api-document.ts";
import { composed } from "./platform-context.ts";

/** Documented routes that need no permission, and why. */
const EXEMPT: Record<string, string> = {
  "POST /api/v2/auth/sign-in": "public: the credential is the email and password in the body",
  "POST /api/v2/auth/two-factor": "public: completes a sign-in with the pending two-factor cookie and a TOTP code",
  "POST /api/v2/auth/sign-out": "self-service: ends the caller's own session",
  "GET /api/v2/auth/session": "self-service: who the caller is",
  "DELETE /api/v2/sessions/{sessionId}":
    "self-service: the caller's own session; another member's needs session:revoke-others (checked on the target)",
  "POST /api/v2/organizations":
    "self-service: a signed-in person creates a new organisation and becomes its owner (sessions only); no role " +
    "in an existing organisation applies",
  "POST /api/v2/webhooks/receipts":
    "public: the Standard Webhooks signature with the endpoint's secret is the credential",
  "POST /api/rpc/{procedure}": "the transport: each procedure runs its REST route, that route's permission included",
};

/** Routes outside the API document (Hono's form), and why they need no permission. */
const UNDOCUMENTED: Record<string, string> = {
  "GET /healthz": "public: liveness for load balancers",
  "GET /readyz": "public: readiness for load balancers",
  "GET /metrics": "the scrape endpoint: METRICS_TOKEN when configured, no organisation's data",
  "ALL /v2/*": "an alias: the request is answered again under /api/v2, permission included",
  "GET /api": "public documentation: redirects to the explorer",
  "GET /api/v1": "public documentation: the explorer",
  "GET /api/v2": "public documentation: the explorer",
  "GET /api/v1/spec.json": "public documentation: the OpenAPI document",
  "GET /api/v2/spec.json": "public documentation: the OpenAPI document",
  "GET /api/v2/explorer/:asset": "public documentation: the explorer's assets",
  "ALL /api/rpc/*":
    "the transport: each procedure runs its REST route (POST), that route's permission included; other methods 405",
};

type Route = RegisteredRoute & { [PERMISSION_EXTENSION]?: string };

const name = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

let routes: Route[];
let served: string[];
const ALL_METHOD_HANDLERS = new Set(["/v2/*", "/api/rpc/*"]);
beforeAll(async () => {
  ({ routes, served } = await withOfflineApp(async (app: App) => ({
    routes: app.openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? [d.route as Route] : [])),
    // Middleware is registered as ALL on a pattern; the endpoints are the rest (and the handlers of every method:
    // the /v2 alias and the /api/rpc transport).
    served: [
      ...new Set(
        app.routes
          .filter((r) => r.method !== "ALL" || ALL_METHOD_HANDLERS.has(r.path))
          .map((r) => name(r.method, r.path)),
      ),
    ],
  })));
}, 60_000);

const declared = (route: Route) => typeof route[PERMISSION_EXTENSION] === "string";
const allowed: Record<string, string> = EXEMPT;

describe("every route declares its permission", () => {
  it("every documented route (REST v1 and v2) declares one, or is exempt with a reason", () => {
    expect(routes.length).toBeGreaterThan(150);
    const undeclared = routes.filter((r) => !declared(r)).map((r) => name(r.method, r.path));
    expect(undeclared.filter((route) => !allowed[route])).toEqual([]);
  });

  it("every /api/rpc procedure runs a REST route that declares one, or is exempt", () => {
    const procedures = rpcProcedures(routes.filter((r) => r.path.startsWith("/api/v2/")));
    expect(procedures.length).toBeGreaterThan(100);
    const byName = new Map(routes.map((r) => [name(r.method, r.path), r]));
    const gaps = procedures.filter((p) => {
      const route = byName.get(name(p.method, p.path));
      return !route || (!declared(route) && !allowed[name(p.method, p.path)]);
    });
    expect(gaps.map((p) => p.name)).toEqual([]);
  });

  it("every route outside the document is listed with a reason", () => {
    const documented = new Set(routes.map((r) => name(r.method, honoPath(r.path))));
    expect(served.filter((route) => !documented.has(route) && !UNDOCUMENTED[route])).toEqual([]);
  });

  it("exempts only routes that exist and carry no permission, public ones among the plugins' public paths", () => {
    const byName = new Map(routes.map((r) => [name(r.method, r.path), r]));
    const stale = Object.keys(allowed).filter((route) => {
      const found = byName.get(route);
      return !found || declared(found);
    });
    expect(stale).toEqual([]);
    const publicPaths = new Set(composed.publicPaths);
    const notPublic = Object.entries(EXEMPT)
      .filter(([, reason]) => reason.startsWith("public"))
      .filter(([route]) => !publicPaths.has(route.split(" ")[1]));
    expect(notPublic).toEqual([]);
    expect(Object.keys(UNDOCUMENTED).filter((route) => !served.includes(route))).toEqual([]);
  });
});
