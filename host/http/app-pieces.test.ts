// The host app's pieces, each on a bare Hono app: body limits, the 404/405 answer, the /v2 link forwarding and the
// plugins' route mounting (refused when two plugins' routes overlap).
import { OpenAPIHono } from "@hono/zod-openapi";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { HostContext, Plugin } from "../plugin.ts";
import { bodyLimits } from "./body-limits.ts";
import type { AppEnv } from "./env.ts";
import { handleError } from "./error-handler.ts";
import { mountPluginRoutes } from "./mount-plugin-routes.ts";
import { notFoundHandler } from "./not-found.ts";
import { requestId } from "./request-id.ts";
import { followV2Links } from "./v2-links.ts";

const silent = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  child: () => silent,
} as unknown as HostContext["logger"];

function bare() {
  const app = new Hono<AppEnv>();
  app.use("*", requestId);
  app.onError(handleError(silent));
  return app;
}

describe("bodyLimits", () => {
  it("refuses a body above the limit with 413 PAYLOAD_TOO_LARGE and lets a smaller one through", async () => {
    const app = bare();
    app.use("/api/*", bodyLimits(8));
    app.post("/api/echo", async (c) => c.text(await c.req.text()));
    const big = await app.request("/api/echo", {
      method: "POST",
      body: "0123456789",
      headers: { "content-length": "10" },
    });
    expect(big.status).toBe(413);
    expect(await big.text()).toContain("PAYLOAD_TOO_LARGE");
    const small = await app.request("/api/echo", { method: "POST", body: "0123", headers: { "content-length": "4" } });
    expect(await small.text()).toBe("0123");
  });
});

describe("notFoundHandler", () => {
  it("answers 405 with Allow on a path that answers other methods, else 404", async () => {
    const app = bare();
    app.get("/api/v2/things", (c) => c.text("ok"));
    app.notFound(notFoundHandler(app));
    const wrong = await app.request("/api/v2/things", { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toContain("GET");
    expect((await app.request("/api/v2/nothing")).status).toBe(404);
  });
});

describe("followV2Links", () => {
  it("answers /v2/... as /api/v2/..., with the same request id", async () => {
    const app = bare();
    app.get("/api/v2/things", (c) => c.text(`things ${c.get("requestId")}`));
    followV2Links(app);
    const response = await app.request("/v2/things", { headers: { "x-request-id": "link-request-1" } });
    expect(await response.text()).toBe("things link-request-1");
  });
});

describe("mountPluginRoutes", () => {
  const ctx = { config: { pluginSettings: new Map() }, logger: silent } as unknown as HostContext;
  const plugin = (id: string, path: string) =>
    ({ id, routes: (app: Hono<AppEnv>) => app.get(path, (c) => c.text(id)) }) as unknown as Plugin;

  it("mounts each plugin's routes at the root", async () => {
    const app = new OpenAPIHono<AppEnv>();
    mountPluginRoutes(app, ctx, [plugin("a", "/api/v2/a"), plugin("b", "/api/v2/b")], undefined);
    expect(await (await app.request("/api/v2/b")).text()).toBe("b");
  });

  it("refuses two plugins whose routes match one request", () => {
    const app = new OpenAPIHono<AppEnv>();
    const clash = [plugin("a", "/api/v2/x/:id"), plugin("b", "/api/v2/x/:name")];
    expect(() => mountPluginRoutes(app, ctx, clash, undefined)).toThrow(/Plugins "a" and "b"/);
  });
});
