import { describe, expect, it } from "vitest";
import { allowedMethods, pathMatches } from "./allowed-methods.ts";

const routes = [
  { method: "ALL", path: "/api/*" },
  { method: "GET", path: "/api/v2/tokens/:address" },
  { method: "POST", path: "/api/v2/tokens" },
  { method: "GET", path: "/api/v2/tokens" },
  { method: "DELETE", path: "/api/v2/system/topic-schemes/:name" },
  { method: "PUT", path: "/api/v2/system/topic-schemes/:name" },
  { method: "GET", path: "/api/v2/explorer/*" },
];

describe("allowedMethods", () => {
  it("lists the methods of every route matching the path, HEAD beside GET, middleware left out", () => {
    expect(allowedMethods(routes, "/api/v2/tokens")).toEqual(["GET", "HEAD", "POST"]);
    expect(allowedMethods(routes, "/api/v2/tokens/0xabc")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods(routes, "/api/v2/system/topic-schemes/kyc")).toEqual(["PUT", "DELETE"]);
    expect(allowedMethods(routes, "/api/v2/explorer/a/b.js")).toEqual(["GET", "HEAD"]);
  });

  it("is empty for an unknown path", () => {
    expect(allowedMethods(routes, "/api/v2/nothing")).toEqual([]);
    expect(allowedMethods(routes, "/api/v2/tokens/0xabc/more")).toEqual([]);
    expect(allowedMethods(routes, "/api/v2/tokens/")).toEqual([]);
  });
});

describe("pathMatches", () => {
  it("matches parameters to one non-empty segment", () => {
    expect(pathMatches("/a/:id", "/a/1")).toBe(true);
    expect(pathMatches("/a/:id", "/a/")).toBe(false);
    expect(pathMatches("/a/:id", "/a/1/2")).toBe(false);
    expect(pathMatches("/a/*", "/a/1/2")).toBe(true);
  });
});
