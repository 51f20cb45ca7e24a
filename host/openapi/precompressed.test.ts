// The precompressed body: encodings that round-trip, negotiation headers and ETag revalidation.

import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { matchesIfNoneMatch, precompress, sendPrecompressed } from "./precompressed.ts";

const text = JSON.stringify({
  openapi: "3.1.0",
  paths: Object.fromEntries([...Array(50)].map((_, i) => [`/p${i}`, {}])),
});
const body = precompress(text, { contentType: "application/json; charset=utf-8" });

function appServing() {
  const app = new Hono();
  app.get("/doc", (c) => sendPrecompressed(c, body, "public, max-age=300"));
  return app;
}

describe("precompress", () => {
  it("keeps br and gzip encodings that decompress to the same bytes, smaller than the original", () => {
    expect(Buffer.from(body.encodings.identity).toString("utf8")).toBe(text);
    expect(brotliDecompressSync(body.encodings.br!).toString("utf8")).toBe(text);
    expect(gunzipSync(body.encodings.gzip!).toString("utf8")).toBe(text);
    expect(body.encodings.br?.byteLength).toBeLessThan(text.length);
    expect(body.encodings.gzip?.byteLength).toBeLessThan(text.length);
  });

  it("derives a weak ETag from the content", () => {
    expect(body.etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(precompress(text, { contentType: "text/plain" }).etag).toBe(body.etag);
    expect(precompress(`${text} `, { contentType: "text/plain" }).etag).not.toBe(body.etag);
  });
});

describe("matchesIfNoneMatch", () => {
  it("compares weakly and accepts lists and *", () => {
    const strong = body.etag.slice(2);
    expect(matchesIfNoneMatch(undefined, body.etag)).toBe(false);
    expect(matchesIfNoneMatch(body.etag, body.etag)).toBe(true);
    expect(matchesIfNoneMatch(strong, body.etag)).toBe(true);
    expect(matchesIfNoneMatch(`"other", ${body.etag}`, body.etag)).toBe(true);
    expect(matchesIfNoneMatch("*", body.etag)).toBe(true);
    expect(matchesIfNoneMatch('W/"other"', body.etag)).toBe(false);
  });
});

describe("sendPrecompressed", () => {
  it("answers br, gzip or identity with Content-Encoding, Vary, ETag and Cache-Control", async () => {
    const app = appServing();
    for (const [acceptEncoding, expected] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["deflate", null],
    ] as const) {
      const res = await app.request("/doc", { headers: { "accept-encoding": acceptEncoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBe(expected);
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("etag")).toBe(body.etag);
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const bytes = Buffer.from(await res.arrayBuffer());
      const decoded = expected === "br" ? brotliDecompressSync(bytes) : expected === "gzip" ? gunzipSync(bytes) : bytes;
      expect(decoded.toString("utf8")).toBe(text);
    }
  });

  it("answers identity for a body kept uncompressed, whatever the request accepts", async () => {
    const png = precompress(new Uint8Array([137, 80, 78, 71]), { contentType: "image/png", compress: false });
    expect(Object.keys(png.encodings)).toEqual(["identity"]);
    const app = new Hono();
    app.get("/icon.png", (c) => sendPrecompressed(c, png, "public, max-age=86400"));
    const res = await app.request("/icon.png", { headers: { "accept-encoding": "br, gzip" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png.encodings.identity);
  });

  it("answers 304 without a body when the caller holds the current ETag", async () => {
    const res = await appServing().request("/doc", { headers: { "if-none-match": body.etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(body.etag);
    expect(await res.text()).toBe("");
  });
});
