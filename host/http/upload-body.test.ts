import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { acceptsUpload, uploadAllowance } from "./upload-body.ts";

describe("a route's upload allowance", () => {
  // As app.ts reads it: in a middleware of the whole app, before the route's own handlers run.
  const app = new Hono();
  app.use("*", async (c, next) => {
    c.header("x-allowance", String(uploadAllowance(c) ?? "none"));
    await next();
  });
  const sub = new Hono();
  sub.post("/files/:id", acceptsUpload(10_000), (c) => c.text("stored"));
  sub.get("/files/:id", (c) => c.text("file"));
  sub.post("/notes", (c) => c.text("noted"));
  app.route("/", sub);

  const allowance = async (method: string, path: string) =>
    (await app.request(path, { method })).headers.get("x-allowance");

  it("is the size the matched route declares, seen before the route runs", async () => {
    expect(await allowance("POST", "/files/1")).toBe("10000");
  });

  it("is none for another method on the same path, and for other routes", async () => {
    expect(await allowance("GET", "/files/1")).toBe("none");
    expect(await allowance("POST", "/notes")).toBe("none");
    expect(await allowance("POST", "/nowhere")).toBe("none");
  });

  it("lets the request through: the marker does nothing itself", async () => {
    expect(await (await app.request("/files/1", { method: "POST" })).text()).toBe("stored");
  });
});
