import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv, Principal } from "./env.ts";
import { originProblem, requestOrigin, sameOriginGuard, trustedOrigins } from "./same-origin.ts";

const OWN = "http://127.0.0.1:8080";

describe("the Origin of a session write", () => {
  const trusted = trustedOrigins({
    TRUSTED_ORIGINS: "https://console.example.com, http://localhost:5173/",
    PUBLIC_BASE_URL: "https://api.example.com/base",
    TRUST_PROXY: 0,
  });

  it("is this API's own origin, PUBLIC_BASE_URL's or one of TRUSTED_ORIGINS", () => {
    expect([...trusted].sort()).toEqual([
      "http://localhost:5173",
      "https://api.example.com",
      "https://console.example.com",
    ]);
    for (const origin of [OWN, "https://console.example.com", "http://localhost:5173", "https://api.example.com"])
      expect(originProblem(origin, OWN, trusted), origin).toBeNull();
  });

  it("another scheme, host or port is cross-site; none, or null, is refused", () => {
    for (const origin of [
      "https://127.0.0.1:8080",
      "http://127.0.0.1:8081",
      "http://evil.example",
      "http://localhost:8080",
    ])
      expect(originProblem(origin, OWN, trusted), origin).toMatch(
        /is not this API's origin \(http:\/\/127\.0\.0\.1:8080\)/,
      );
    expect(originProblem(undefined, OWN, trusted)).toMatch(/must carry an Origin header/);
    expect(originProblem("null", OWN, trusted)).toMatch(/is not a web origin/);
  });

  it("behind trusted proxies, the origin the outermost one was asked for", async () => {
    const app = new Hono();
    app.get("/", (c) => c.text(`${requestOrigin(c, 0)} ${requestOrigin(c, 1)}`));
    const res = await app.request("http://10.0.0.5:8080/", {
      headers: { "x-forwarded-proto": "https", "x-forwarded-host": "api.example.com" },
    });
    expect(await res.text()).toBe("http://10.0.0.5:8080 https://api.example.com");
  });
});

describe("the same-origin guard", () => {
  const guard = sameOriginGuard({ TRUSTED_ORIGINS: undefined, PUBLIC_BASE_URL: undefined, TRUST_PROXY: 0 });
  const session: Principal = {
    kind: "session",
    organizationId: "o",
    userId: "u",
    roles: ["owner"],
    platformRoles: [],
    scope: "read-write",
  };
  const apiKey: Principal = { ...session, kind: "api-key" };

  function app(principal: Principal | undefined) {
    const hono = new Hono<AppEnv>();
    hono.onError((error, c) =>
      error instanceof ApiError ? c.json({ code: error.code, message: error.message }, 403) : c.text("?", 500),
    );
    hono.use("/public", async (c, next) => {
      guard.publicWrite(c);
      await next();
    });
    hono.use("/private", async (c, next) => {
      if (principal) c.set("principal", principal);
      guard.sessionWrite(c);
      await next();
    });
    hono.all("*", (c) => c.text("ok"));
    return hono;
  }
  const send = async (who: Principal | undefined, path: string, init: RequestInit) => {
    const res = await app(who).request(`${OWN}${path}`, init);
    return res.status === 200 ? "ok" : ((await res.json()) as { code: string }).code;
  };
  const json = { "content-type": "application/json" };

  it("refuses a session's cross-site or text/plain write, and one without an Origin", async () => {
    const post = (headers: Record<string, string>) => send(session, "/private", { method: "POST", headers, body: "" });
    expect(await post({ origin: "http://evil.example", "content-type": "text/plain" })).toBe(
      "CROSS_SITE_REQUEST_REFUSED",
    );
    expect(await post({ origin: "http://evil.example", ...json })).toBe("CROSS_SITE_REQUEST_REFUSED");
    expect(await post({ ...json })).toBe("CROSS_SITE_REQUEST_REFUSED");
    expect(await post({ origin: OWN, "content-type": "text/plain" })).toBe("SESSION_WRITE_JSON_REQUIRED");
    expect(await post({ origin: OWN, "content-type": "application/x-www-form-urlencoded" })).toBe(
      "SESSION_WRITE_JSON_REQUIRED",
    );
    expect(await post({ origin: OWN })).toBe("SESSION_WRITE_JSON_REQUIRED");
    expect(await post({ origin: OWN, "content-type": "application/json; charset=utf-8" })).toBe("ok");
    expect(await send(session, "/private", { method: "DELETE", headers: { origin: OWN, ...json } })).toBe("ok");
  });

  it("lets reads, API keys and the requests of procedures pass", async () => {
    expect(await send(session, "/private", { headers: { origin: "http://evil.example" } })).toBe("ok");
    const crossSite = { method: "POST", headers: { origin: "http://evil.example", "content-type": "text/plain" } };
    expect(await send(apiKey, "/private", crossSite)).toBe("ok");
    expect(await send(undefined, "/private", crossSite)).toBe("ok");
    const inner = await app(session).request(`${OWN}/private`, crossSite, { rpcInner: true });
    expect(inner.status).toBe(200);
  });

  it("checks a public route's Origin only when one is sent", async () => {
    expect(await send(undefined, "/public", { method: "POST", headers: json })).toBe("ok");
    expect(await send(undefined, "/public", { method: "POST", headers: { origin: OWN, ...json } })).toBe("ok");
    expect(
      await send(undefined, "/public", { method: "POST", headers: { origin: "http://evil.example", ...json } }),
    ).toBe("CROSS_SITE_REQUEST_REFUSED");
  });
});
