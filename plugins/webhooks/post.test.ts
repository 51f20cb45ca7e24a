import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postDelivery } from "./post.ts";

describe("a delivery's POST", () => {
  let server: Server;
  let port: number;
  const bodies: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        bodies.push(Buffer.concat(chunks).toString());
        if (req.url === "/slow") return; // never answers
        if (req.url === "/moved") return res.writeHead(302, { location: "http://169.254.169.254/" }).end();
        if (req.url === "/busy") return res.writeHead(503, { "retry-after": "7" }).end();
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const post = (path: string, allowPrivate = true, timeoutMs = 2000) =>
    postDelivery(`http://localhost:${port}${path}`, { "webhook-id": "evt_1" }, '{"a":1}', { timeoutMs, allowPrivate });

  it("succeeds on a 2xx and sends the body", async () => {
    expect(await post("/ok")).toEqual({ responseStatus: 204, error: null, retryAfter: null });
    expect(bodies.at(-1)).toBe('{"a":1}');
  });

  it("refuses, at connect time, a name that resolves to a private address unless private targets are allowed", async () => {
    const refused = await post("/ok", false);
    expect(refused.responseStatus).toBeNull();
    expect(refused.error).toMatch(/loopback, private or link-local/);
  });

  it("does not follow redirects, reports Retry-After, and gives up after the timeout", async () => {
    expect(await post("/moved")).toMatchObject({ responseStatus: 302, error: "HTTP 302" });
    expect(await post("/busy")).toEqual({ responseStatus: 503, error: "HTTP 503", retryAfter: "7" });
    expect(await post("/slow", true, 300)).toEqual({
      responseStatus: null,
      error: "no response within 0.3 s",
      retryAfter: null,
    });
  });
});
