import { describe, expect, it } from "vitest";
import {
  decodeUtf8,
  foreignCharset,
  jsonStringProblem,
  jsonTooDeep,
  MAX_JSON_DEPTH,
  textProblem,
} from "./request-text.ts";

const bytes = (...b: number[]) => new Uint8Array(b);

describe("request text", () => {
  it("accepts UTF-8 charsets (any case, quoted) and none; names any other", () => {
    expect(foreignCharset(undefined)).toBeUndefined();
    expect(foreignCharset("application/json")).toBeUndefined();
    expect(foreignCharset("application/json; charset=UTF-8")).toBeUndefined();
    expect(foreignCharset('application/json;charset="utf8"')).toBeUndefined();
    expect(foreignCharset("application/json; charset=utf-16")).toBe("utf-16");
    expect(foreignCharset("application/json; Charset=ISO-8859-1; x=y")).toBe("iso-8859-1");
  });

  it("decodes UTF-8; refuses a byte order mark and invalid bytes (overlong, truncated, encoded surrogates)", () => {
    expect(decodeUtf8(new TextEncoder().encode('{"name":"Zoë €"}'))).toEqual({ text: '{"name":"Zoë €"}' });
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d))).toEqual({ problem: expect.stringMatching(/byte order/) });
    for (const bad of [bytes(0x22, 0xff, 0x22), bytes(0xc0, 0xaf), bytes(0xe2, 0x82), bytes(0xed, 0xa0, 0x80)])
      expect(decodeUtf8(bad)).toEqual({ problem: "The body is not valid UTF-8" });
  });

  it("checks a body nested far deeper than the call stack (found by the fuzz test: it answered 500)", () => {
    const deep = (inner: string) => `${'{"a":'.repeat(100_000)}${inner}${"}".repeat(100_000)}`;
    expect(jsonStringProblem(deep('"\\ud800"'))).toMatch(/surrogate/);
    expect(jsonStringProblem(deep('"\\u00e9"'))).toBeUndefined();
  });

  it("finds NUL and lone surrogates in JSON strings, keys included; pairs and escaped backslashes are fine", () => {
    expect(jsonStringProblem('{"name":"a\\u0000b"}')).toMatch(/NUL/);
    expect(jsonStringProblem('{"name":"\\ud800"}')).toMatch(/surrogate/);
    expect(jsonStringProblem('{"name":"x\\uDC00"}')).toMatch(/surrogate/);
    expect(jsonStringProblem('{"\\ud800":1}')).toMatch(/surrogate/);
    expect(jsonStringProblem('{"a":[{"b":"\\udbff"}]}')).toMatch(/surrogate/);
    expect(jsonStringProblem('{"name":"\\ud83d\\ude00"}')).toBeUndefined(); // a pair: 😀
    expect(jsonStringProblem('{"name":"\\\\ud800 and \\\\u0000"}')).toBeUndefined(); // backslash, then text
    expect(jsonStringProblem("not json \\ud800")).toBeUndefined(); // the validator answers
    expect(textProblem("fine")).toBeUndefined();
  });

  it("measures JSON nesting in one pass, brackets inside strings not counted", () => {
    const nest = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(`${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`)).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ s: "[".repeat(1000), t: '\\"{{{' }))).toBe(false);
    expect(jsonTooDeep('{"a":[{"b":[1,2,{"c":"]]]"}]}]}', 3)).toBe(true);
    expect(jsonTooDeep('{"a":[{"b":"[[["}]}', 3)).toBe(false);
  });
});
