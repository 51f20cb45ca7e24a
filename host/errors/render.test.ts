import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error.ts";
import { errorDefinition, registeredErrors } from "./registry.ts";
import { errorFormFor, renderError } from "./render.ts";

describe("error envelopes", () => {
  it("renders Form A on versioned routes", () => {
    const error = new ApiError("CHAIN_NOT_READY", { details: { chainId: 1, chainStatus: "pending" } });
    expect(errorFormFor("/api/v2/tokens")).toBe("A");
    expect(renderError(error, "A", "req-1")).toEqual({
      code: "CHAIN_NOT_READY",
      status: 409,
      message: errorDefinition("CHAIN_NOT_READY").message,
      data: {
        id: "SVC-9086",
        why: errorDefinition("CHAIN_NOT_READY").why,
        fix: errorDefinition("CHAIN_NOT_READY").fix,
        retryable: true,
        category: "domain",
        chainId: 1,
        chainStatus: "pending",
        requestId: "req-1",
      },
    });
  });

  it("renders a fix about this caller in place of the registry's (NOT_ONBOARDED's missing step)", () => {
    const error = new ApiError("NOT_ONBOARDED", { fix: "Set a PIN code.", details: { missingStep: "pincode" } });
    expect(renderError(error, "A", "req-1")).toMatchObject({
      code: "NOT_ONBOARDED",
      status: 403,
      data: { id: "SVC-0010", fix: "Set a PIN code.", missingStep: "pincode" },
    });
    expect(renderError(error, "B", "req-1")).toMatchObject({ error: { fix: "Set a PIN code." } });
    expect(new ApiError("SYSTEM_NOT_CREATED")).toMatchObject({
      status: 403,
      fix: errorDefinition("SYSTEM_NOT_CREATED").fix,
    });
  });

  it("keeps the registry id when a detail is named id", () => {
    const error = new ApiError("TOKEN_NOT_FOUND", { details: { id: "0xabc" } });
    expect((renderError(error, "A", "req-1").data as { id: string }).id).toBe("SVC-0303");
  });

  it("renders the RPC error on /api/rpc, the public object at data.dapiError", () => {
    expect(errorFormFor("/api/rpc/tokens/read")).toBe("RPC");
    const body = renderError(new ApiError("API_KEY_NOT_SUPPORTED_ON_RPC"), "RPC", "req-3") as {
      json: { defined: boolean; code: string; status: number; data: { dapiError: unknown; retryable: boolean } };
      meta: unknown[];
    };
    expect(body.meta).toEqual([]);
    expect(body.json).toMatchObject({ defined: true, code: "API_KEY_NOT_SUPPORTED_ON_RPC", status: 403 });
    expect(body.json.data.dapiError).toEqual(
      renderError(new ApiError("API_KEY_NOT_SUPPORTED_ON_RPC"), "B", "req-3").error,
    );
  });

  it("renders Form B on legacy routes", () => {
    expect(errorFormFor("/api/token/0x1/holders")).toBe("B");
    const body = renderError(new ApiError("UNAUTHORIZED"), "B", "req-2");
    expect(body).toEqual({
      error: {
        id: "SVC-0002",
        category: "auth",
        status: 401,
        retryable: false,
        message: errorDefinition("UNAUTHORIZED").message,
        why: errorDefinition("UNAUTHORIZED").why,
        fix: errorDefinition("UNAUTHORIZED").fix,
        details: { code: "UNAUTHORIZED", requestId: "req-2" },
      },
    });
  });

  it("keeps the id pairings the spec fixes, each id used once", () => {
    const pairs: Record<string, [string, number]> = {
      BAD_REQUEST: ["SVC-0001", 400],
      ACTIVE_ORGANIZATION_REQUIRED: ["SVC-0034", 403],
      REQUEST_CHAIN_SYSTEM_REQUIRED: ["SVC-9524", 404],
      CHAIN_NOT_READY: ["SVC-9086", 409],
      "auth.apikey.THROTTLED": ["SVC-12136", 429],
      INTERNAL_SERVER_ERROR: ["SVC-0084", 500],
      AUTH_STORE_UNAVAILABLE: ["SVC-12258", 503],
      REQUEST_DEADLINE_EXCEEDED: ["SVC-9532", 504],
      COLLECTION_FILTER_IN_LIST_TOO_LARGE: ["SVC-9273", 400],
      COLLECTION_PAGE_LIMIT_OUT_OF_RANGE: ["SVC-9274", 400],
      COLLECTION_PAGE_OFFSET_OUT_OF_RANGE: ["SVC-9275", 400],
    };
    for (const [code, [id, status]] of Object.entries(pairs)) {
      const def = errorDefinition(code);
      expect([code, def.id, def.status]).toEqual([code, id, status]);
    }
    const ids = registeredErrors().map(([, d]) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
