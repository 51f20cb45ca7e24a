import { describe, expect, it } from "vitest";
import { procedureName, type RegisteredRoute, rpcProcedures } from "./procedures.ts";

describe("procedure names", () => {
  it("are the path's fixed segments in camelCase and a verb", () => {
    expect(procedureName("post", "/api/v2/tokens/{tokenAddress}/mint")).toBe("tokens/mint/post");
    expect(procedureName("get", "/api/v2/webhooks/endpoints/{id}")).toBe("webhooks/endpoints/read");
    expect(procedureName("get", "/api/v2/webhooks/endpoints")).toBe("webhooks/endpoints/get");
    expect(procedureName("post", "/api/v2/auth/sign-in")).toBe("auth/signIn/post");
    expect(procedureName("get", "/api/v2/webhooks/asyncapi.json")).toBe("webhooks/asyncapiJson/get");
    expect(procedureName("delete", "/api/v2/exchange-rates/{baseCurrency}/{quoteCurrency}")).toBe(
      "exchangeRates/delete",
    );
  });

  it("follow an operation's own operationId", () => {
    expect(procedureName("get", "/api/v2/anything", "things.list")).toBe("things/list");
  });
});

describe("rpcProcedures", () => {
  /** The registry's route definitions of a map of paths to their operations. */
  const document = (paths: Record<string, Record<string, object>>): RegisteredRoute[] =>
    Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ method, path, ...operation })),
    );

  it("takes v2 operations with their parameters and whether they take a body; streams, files and other paths stay out", () => {
    const procedures = rpcProcedures(
      document({
        "/api/v2/tokens/{tokenAddress}/mint": { post: { request: { body: {} } } },
        "/api/v2/things/{id}": { get: {}, delete: {} },
        "/api/v2/things/stream": {
          get: { responses: { 200: { content: { "text/event-stream": {} } } } },
        },
        "/api/v2/things/{id}/file": {
          get: { responses: { 200: { content: { "application/octet-stream": {} } } } },
          post: { request: { body: { content: { "multipart/form-data": {} } } } },
        },
        "/api/token/{address}": { get: {} },
      }),
    );
    expect(procedures).toEqual([
      {
        name: "tokens/mint/post",
        method: "POST",
        path: "/api/v2/tokens/{tokenAddress}/mint",
        params: ["tokenAddress"],
        hasBody: true,
      },
      { name: "things/read", method: "GET", path: "/api/v2/things/{id}", params: ["id"], hasBody: false },
      { name: "things/delete", method: "DELETE", path: "/api/v2/things/{id}", params: ["id"], hasBody: false },
    ]);
  });

  it("names each route by its procedure, as the document's operationId", () => {
    const routes = document({ "/api/v2/tokens/{tokenAddress}/mint": { post: {} } });
    rpcProcedures(routes);
    expect(routes[0]?.operationId).toBe("tokens.mint.post");
  });

  it("refuses two operations that would share a name", () => {
    expect(() => rpcProcedures(document({ "/api/v2/a/{x}/b": { post: {} }, "/api/v2/a/b": { post: {} } }))).toThrow(
      /both be the procedure "a\/b\/post"/,
    );
  });
});
