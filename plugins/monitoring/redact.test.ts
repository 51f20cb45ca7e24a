import { describe, expect, it } from "vitest";
import {
  isSecretName,
  MAX_BODY_CHARS,
  REDACTED,
  redactBody,
  redactHeaders,
  redactSecrets,
  redactUrl,
  redactValue,
} from "./redact.ts";

const KEY = `svc_${"a".repeat(43)}`;
const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/=";
const PRIVATE_KEY = `0x${"ab12".repeat(16)}`;
const BEARER = "Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig";

describe("secret-shaped text", () => {
  it("redacts API keys, webhook secrets, bearer tokens and 32-byte hex keys wherever they sit in text", () => {
    const text = `key ${KEY}, secret ${WHSEC}; pk=${PRIVATE_KEY} auth: ${BEARER} (bearer abc.def)`;
    expect(redactSecrets(text)).toBe(
      `key ${REDACTED}, secret ${REDACTED}; pk=${REDACTED} auth: ${REDACTED} (${REDACTED})`,
    );
    expect(redactSecrets(`"${PRIVATE_KEY.toUpperCase().replace("0X", "0x")}"`)).toBe(`"${REDACTED}"`);
  });

  it("keeps what only looks close: addresses, longer hex, ids, and hashes when asked", () => {
    const address = `0x${"ab".repeat(20)}`;
    const signature = `0x${"cd".repeat(65)}`;
    const text = `${address} ${signature} svc_short 0xdeadbeef`;
    expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets(PRIVATE_KEY, { keepHashes: true })).toBe(PRIVATE_KEY);
    expect(redactSecrets(`x${PRIVATE_KEY}`)).toBe(`x${PRIVATE_KEY}`);
  });

  it("in bodies, URLs, headers and error details; a hash-named field or path parameter keeps its hash", () => {
    const body = redactBody({
      note: `rotate to ${WHSEC}`,
      memo: PRIVATE_KEY,
      transactionHash: PRIVATE_KEY,
      nested: { comment: `use ${KEY}` },
      walletVerification: { verificationType: "PINCODE", secretVerificationCode: "123456" },
    });
    expect(JSON.parse(body!)).toEqual({
      note: `rotate to ${REDACTED}`,
      memo: REDACTED,
      transactionHash: PRIVATE_KEY,
      nested: { comment: `use ${REDACTED}` },
      walletVerification: REDACTED,
    });
    expect(
      redactUrl(
        `/api/v2/things/${PRIVATE_KEY}?note=${encodeURIComponent(WHSEC)}&filter[transactionHash]=${PRIVATE_KEY}`,
      ),
    ).toBe(`/api/v2/things/${REDACTED}?note=${REDACTED}&filter%5BtransactionHash%5D=${PRIVATE_KEY}`);
    expect(
      redactUrl(`/api/v2/blockchain-transactions/${PRIVATE_KEY}`, "/api/v2/blockchain-transactions/{transactionHash}"),
    ).toBe(`/api/v2/blockchain-transactions/${PRIVATE_KEY}`);
    expect(redactUrl(`/api/v2/x/${encodeURIComponent(WHSEC)}`)).toBe(`/api/v2/x/${REDACTED}`);
    expect(redactHeaders(new Headers({ "x-note": `${WHSEC} ${PRIVATE_KEY}` }))).toEqual({
      "x-note": `${REDACTED} ${REDACTED}`,
    });
    expect(redactValue({ message: `Invalid key ${PRIVATE_KEY}` })).toEqual({ message: `Invalid key ${REDACTED}` });
  });
});

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
