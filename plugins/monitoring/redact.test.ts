import { describe, expect, it } from "vitest";
import { isSecretName, MAX_BODY_CHARS, REDACTED, redactBody, redactHeaders, redactUrl, redactValue } from "./redact.ts";

const KEY = `svc_${"a".repeat(43)}`;

describe("request log redaction", () => {
  it("replaces secret fields at any depth and API keys anywhere", () => {
    const out = redactValue({
      password: "hunter2",
      walletVerification: { verificationType: "PINCODE", secretVerificationCode: "123456" },
      nested: [{ privateKey: "0xabc", signature: "0xdef", note: `key is ${KEY}` }],
      code: "654321",
      error: { code: "BAD_REQUEST" },
      tokenAddress: "0x1234",
    });
    expect(out).toEqual({
      password: REDACTED,
      walletVerification: REDACTED,
      nested: [{ privateKey: REDACTED, signature: REDACTED, note: `key is ${REDACTED}` }],
      code: REDACTED,
      error: { code: "BAD_REQUEST" },
      tokenAddress: "0x1234",
    });
  });

  it("names: credentials yes, ids and addresses no", () => {
    for (const name of ["X-Api-Key", "Authorization", "cookie", "set-cookie", "client_secret", "pinCode", "key"])
      expect(isSecretName(name), name).toBe(true);
    // "key" is a secret only as the whole name: ids and the idempotency key are kept.
    for (const name of ["apiKeyId", "tokenAddress", "user-agent", "idempotency-key"])
      expect(isSecretName(name), name).toBe(false);
  });

  it("headers, URLs and long bodies", () => {
    const headers = redactHeaders(new Headers({ "x-api-key": KEY, authorization: "Bearer abc", accept: "*/*" }));
    expect(headers).toEqual({ "x-api-key": REDACTED, authorization: REDACTED, accept: "*/*" });
    expect(redactUrl(`/api/v2/x?password=p&limit=5&k=${KEY}`)).toBe(
      `/api/v2/x?password=${REDACTED}&limit=5&k=${REDACTED}`,
    );
    const long = redactBody({ items: Array.from({ length: 500 }, (_, i) => ({ text: "x".repeat(50), i })) });
    expect(long!.length).toBeLessThanOrEqual(MAX_BODY_CHARS + 20);
    expect(redactBody("not json")).toBe("[8 bytes of non-JSON text]");
    expect(redactBody(undefined)).toBeNull();
  });
});

describe("what PostgreSQL can store", () => {
  it("a caller's NUL characters become U+FFFD in values, names, headers and URLs", () => {
    const nul = "a\u0000b";
    expect(redactValue({ [nul]: nul, list: [nul] })).toEqual({ "a\uFFFDb": "a\uFFFDb", list: ["a\uFFFDb"] });
    expect(JSON.parse(redactBody(JSON.stringify({ text: nul }))!)).toEqual({ text: "a\uFFFDb" });
    expect(redactHeaders(new Headers({ "x-note": "a b" }))).toEqual({ "x-note": "a b" });
    expect(redactUrl("/api/v2/tokens?filter=a%00b\u0000")).not.toContain("\u0000");
  });
});
