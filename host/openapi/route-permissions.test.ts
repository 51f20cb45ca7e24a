// A route guarded by requirePermission states its permission on its operation.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { expect, it } from "vitest";
import { requirePermission } from "../auth/require-permission.ts";
import type { AppEnv } from "../http/env.ts";
import { documentRoutePermissions } from "./route-permissions.ts";

it("puts the permission of requirePermission on the operation as x-permission", () => {
  const app = documentRoutePermissions(new OpenAPIHono<AppEnv>());
  const ok = { 200: { description: "ok", content: { "application/json": { schema: z.object({}) } } } };
  app.openapi(
    createRoute({ method: "get", path: "/guarded", middleware: [requirePermission("token:read")], responses: ok }),
    (c) => c.json({}, 200),
  );
  app.openapi(createRoute({ method: "get", path: "/open", responses: ok }), (c) => c.json({}, 200));
  const document = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "0" } });
  expect(document.paths?.["/guarded"]?.get).toMatchObject({ "x-permission": "token:read" });
  expect(document.paths?.["/open"]?.get).not.toHaveProperty("x-permission");
});
