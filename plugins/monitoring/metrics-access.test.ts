import { describe, expect, it } from "vitest";
import { ApiError } from "../../host/errors/api-error.ts";
import { assertMetricsAccess } from "./metrics-access.ts";

const TOKEN = "metrics-token-0123456789abcdef";
const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  return undefined;
};

describe("GET /metrics access", () => {
  it("is open without a token only while the database and the chain are both embedded", () => {
    expect(refusal(() => assertMetricsAccess({}, undefined))).toBeUndefined();
    for (const external of [
      { DATABASE_URL: "postgres://db/platform" },
      { RPC_URL: "https://rpc.example" },
      { CHAINS: '[{"id":1,"rpcUrl":"https://rpc.example"}]' },
    ]) {
      expect(refusal(() => assertMetricsAccess(external, `Bearer ${TOKEN}`))).toEqual({
        status: 403,
        code: "METRICS_TOKEN_REQUIRED",
        message: expect.stringContaining("METRICS_TOKEN is not set"),
      });
    }
  });

  it("needs the bearer token whenever one is set, embedded or not", () => {
    for (const config of [{ METRICS_TOKEN: TOKEN }, { METRICS_TOKEN: TOKEN, DATABASE_URL: "postgres://db/platform" }]) {
      expect(refusal(() => assertMetricsAccess(config, `Bearer ${TOKEN}`))).toBeUndefined();
      expect(refusal(() => assertMetricsAccess(config, `bearer ${TOKEN}`))).toBeUndefined();
      for (const header of [undefined, "Bearer nope", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`])
        expect(refusal(() => assertMetricsAccess(config, header))).toMatchObject({
          status: 401,
          code: "METRICS_TOKEN_INVALID",
        });
    }
  });
});
