import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.ts";
import type { Procedure } from "./procedures.ts";
import { restRequest } from "./rest-request.ts";

const outer = new Request("http://host/api/rpc/x", {
  method: "POST",
  headers: {
    cookie: "svc_session=s",
    "idempotency-key": "k1",
    "content-type": "application/json",
    "content-length": "9",
  },
  body: "{}",
});
const mint: Procedure = {
  name: "tokens/mint/post",
  method: "POST",
  path: "/api/v2/tokens/{tokenAddress}/mint",
  params: ["tokenAddress"],
  hasBody: true,
};
const list: Procedure = { name: "things/get", method: "GET", path: "/api/v2/things", params: [], hasBody: false };

describe("restRequest", () => {
  it("puts path parameters in the path and the other fields in the body, with the caller's headers", async () => {
    const request = restRequest(mint, { tokenAddress: "0xab/c", amount: "5" }, outer);
    expect(request.method).toBe("POST");
    expect(new URL(request.url).pathname).toBe("/api/v2/tokens/0xab%2Fc/mint");
    expect(await request.json()).toEqual({ amount: "5" });
    expect(request.headers.get("cookie")).toBe("svc_session=s");
    expect(request.headers.get("idempotency-key")).toBe("k1");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(request.headers.get("content-length")).toBeNull();
  });

  it("writes a route without a body's fields as its query, nested objects in brackets, arrays repeated", () => {
    const request = restRequest(list, { filter: { status: ["A", "B"] }, page: { limit: 2 }, sort: "-name" }, outer);
    expect(new URL(request.url).search).toBe(
      `?${new URLSearchParams([
        ["filter[status]", "A"],
        ["filter[status]", "B"],
        ["page[limit]", "2"],
        ["sort", "-name"],
      ])}`,
    );
    expect(request.body).toBeNull();
  });

  it("refuses an input that is no object, or lacks a path parameter, with BAD_REQUEST", () => {
    for (const input of [[], "x", null]) {
      expect(() => restRequest(mint, input, outer)).toThrow(ApiError);
    }
    expect(() => restRequest(mint, { amount: "5" }, outer)).toThrow(/tokenAddress is required/);
    expect(restRequest(list, undefined, outer).url).toBe("http://host/api/v2/things");
  });
});
