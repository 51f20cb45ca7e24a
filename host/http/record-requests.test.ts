import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { RequestRecord } from "../plugin.ts";
import type { AppEnv } from "./env.ts";
import { recordRequests, specTemplate } from "./record-requests.ts";
import { requestId } from "./request-id.ts";

describe("recordRequests", () => {
  it("renders Hono's route paths in the spec's form", () => {
    expect(specTemplate("/api/v2/tokens/:tokenAddress")).toBe("/api/v2/tokens/{tokenAddress}");
    expect(specTemplate("/api/v2/a/:id{[0-9]+}/b/:x")).toBe("/api/v2/a/{id}/b/{x}");
  });

  it("records the answering route, status, JSON body and size; middleware answers name the route behind them", async () => {
    const records: RequestRecord[] = [];
    const app = new OpenAPIHono<AppEnv>();
    app.use("*", requestId);
    app.use("*", recordRequests([(r) => records.push(r)], 0));
    app.use("/api/*", async (c, next) =>
      c.req.header("x-api-key") ? next() : c.json({ code: "UNAUTHORIZED", message: "no key" }, 401),
    );
    app.get("/api/v2/things/stream", (c) => c.text("stream"));
    app.get("/api/v2/things/:id", (c) => c.json({ id: c.req.param("id") }, 200, { "x-extra": "1" }));
    app.get("/healthz", (c) => c.text("ok"));

    const ok = await app.request("/api/v2/things/7?x=1", { headers: { "x-api-key": "k", "idempotency-key": "ik" } });
    expect(await ok.json()).toEqual({ id: "7" });
    expect(ok.headers.get("content-type")).toBe("application/json");
    expect(ok.headers.get("x-extra")).toBe("1");
    await app.request("/api/v2/things/stream", { headers: { "x-api-key": "k" } });
    await app.request("/api/v2/things/9");
    await app.request("/api/v2/nothing", { headers: { "x-api-key": "k" } });
    await app.request("/healthz");

    expect(records.map((r) => [r.routeTemplate, r.statusCode])).toEqual([
      ["/api/v2/things/{id}", 200],
      ["/api/v2/things/stream", 200],
      ["/api/v2/things/{id}", 401],
      [null, 404],
    ]);
    expect(records[0]).toMatchObject({
      method: "GET",
      url: "/api/v2/things/7?x=1",
      requestType: "rest",
      responseBody: { id: "7" },
      responseSize: 10, // {"id":"7"}
      idempotencyKey: "ik",
      traceId: ok.headers.get("x-request-id"),
    });
    expect(records[0]!.failure).toBeUndefined();
    expect(records[2]!.failure).toEqual({ code: "UNAUTHORIZED", message: "no key", details: null });
  });

  it("names a procedure's /api/rpc path as its template; any other /api/rpc path is unmatched", async () => {
    const records: RequestRecord[] = [];
    const app = new OpenAPIHono<AppEnv>();
    app.use("*", requestId);
    const procedures = new Set(["/api/rpc/tokens/read"]);
    app.use(
      "*",
      recordRequests([(r) => records.push(r)], 0, (path) => (procedures.has(path) ? path : null)),
    );
    app.all("/api/rpc/*", (c) => c.json({}, procedures.has(c.req.path) ? 200 : 404));
    await app.request("/api/rpc/tokens/read", { method: "POST" });
    await app.request("/api/rpc/card-x1y2z3", { method: "POST" });
    expect(records.map((r) => [r.routeTemplate, r.requestType, r.statusCode])).toEqual([
      ["/api/rpc/tokens/read", "rpc", 200],
      [null, "rpc", 404],
    ]);
  });
});
