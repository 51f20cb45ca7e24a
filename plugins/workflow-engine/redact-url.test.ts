import { describe, expect, it } from "vitest";
import { redactBody, redactUrl } from "./redact-url.ts";

describe("redactUrl", () => {
  it("replaces user info and secret query values, keeps the rest", () => {
    expect(redactUrl("https://admin:hunter2@engine.example:9070/deploy?token=abc&region=eu")).toBe(
      "https://REDACTED:REDACTED@engine.example:9070/deploy?token=REDACTED&region=eu",
    );
    expect(redactUrl("worker://host-1/4242")).toBe("worker://host-1/4242");
    expect(redactUrl("not a url")).toBe("not a url");
  });

  it("redacts URLs at any depth of a body", () => {
    expect(redactBody({ serviceUrl: "http://u:p@h/x", force: true, nested: ["http://h/?apiKey=s"] })).toEqual({
      serviceUrl: "http://REDACTED:REDACTED@h/x",
      force: true,
      nested: ["http://h/?apiKey=REDACTED"],
    });
  });

  it("cuts a hostile nesting instead of overflowing the stack", () => {
    let deep: unknown = "http://u:p@h/";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(JSON.stringify(redactBody(deep))).toBe('[[[[[[[["[truncated]"]]]]]]]]');
  });
});

describe("an audited body PostgreSQL can store", () => {
  it("turns a caller's NUL characters into U+FFFD in keys and values", () => {
    expect(redactBody({ "a\u0000": ["b\u0000", "\uD800"] })).toEqual({ "a\uFFFD": ["b\uFFFD", "\uFFFD"] });
  });
});
