// Each auth route file mounts its one documented operation; authRoutes mounts them in the document's order, the two
// sign-in steps public (no security requirement).
import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { PlatformDb } from "../../host/db/database.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { currentSessionRoute } from "./current-session-route.ts";
import { revokeSessionRoute } from "./revoke-session-route.ts";
import type { AuthRouteDeps } from "./route-deps.ts";
import { PUBLIC_AUTH_PATHS } from "./routes.ts";
import { signInRoute } from "./sign-in-route.ts";
import { signOutRoute } from "./sign-out-route.ts";
import { twoFactorRoute } from "./two-factor-route.ts";

// Registration reads none of these; the handlers, run by the end-to-end auth tests, do.
const deps = { db: {} as PlatformDb } as AuthRouteDeps;

function operations(register: (app: App) => void) {
  const app = new OpenAPIHono<AppEnv>();
  register(app);
  const document = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "0" } });
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {}).map(([method, op]) => ({ method, path, security: (op as { security?: [] }).security })),
  );
}

describe("auth routes", () => {
  it.each([
    ["sign-in", signInRoute, "post", "/api/v2/auth/sign-in", []],
    ["two-factor", twoFactorRoute, "post", "/api/v2/auth/two-factor", []],
    ["sign-out", signOutRoute, "post", "/api/v2/auth/sign-out", undefined],
    ["current session", currentSessionRoute, "get", "/api/v2/auth/session", undefined],
    ["revoke", revokeSessionRoute, "delete", "/api/v2/sessions/{sessionId}", undefined],
  ] as const)("%s mounts %s", (_, route, method, path, security) => {
    expect(operations((app) => route(app, deps))).toEqual([{ method, path, security }]);
  });

  it("lists the two public steps, as their routes declare them", () => {
    expect(PUBLIC_AUTH_PATHS).toEqual(["/api/v2/auth/sign-in", "/api/v2/auth/two-factor"]);
  });
});
