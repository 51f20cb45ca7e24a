import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postDelivery } from "./post.ts";
import { type Resolve, refusedTarget, targetPolicy } from "./targets.ts";

const LOOPBACK = targetPolicy(["127.0.0.0/8", "::1/128"]);
const NONE = targetPolicy([]);

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

  const post = (path: string, policy = LOOPBACK, timeoutMs = 2000, resolve?: Resolve, host = "localhost") =>
    postDelivery(`http://${host}:${port}${path}`, { "webhook-id": "evt_1" }, '{"a":1}', {
      timeoutMs,
      policy,
      ...(resolve ? { resolve } : {}),
    });

  it("succeeds on a 2xx and sends the body", async () => {
    expect(await post("/ok")).toEqual({ responseStatus: 204, error: null, retryAfter: null });
    expect(bodies.at(-1)).toBe('{"a":1}');
  });

  it("checks, at connect time, what the name resolves to: loopback refused unless listed, nothing sent", async () => {
    const before = bodies.length;
    const refused = await post("/ok", NONE);
    expect(refused.responseStatus).toBeNull();
    expect(refused.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1) is in the loopback range/);
    const literal = await post("/ok", NONE, 2000, undefined, "127.0.0.1");
    expect(literal.error).toMatch(/127\.0\.0\.1 is in the loopback range 127\.0\.0\.0\/8/);
    expect(bodies.length).toBe(before);
  });

  it("a name that rebinds to a range not listed after its check is refused at delivery, never connected", async () => {
    // Saved while it resolved to loopback; at delivery it resolves to the private network and the metadata address.
    let answers = [["127.0.0.1"], ["10.0.0.1"], ["127.0.0.1", "169.254.169.254"]];
    const rebinding: Resolve = async () => answers.shift() ?? [];
    expect(await refusedTarget(`http://rebind.test:${port}/`, LOOPBACK, rebinding)).toBeNull();
    const before = bodies.length;
    const private10 = await post("/ok", LOOPBACK, 2000, rebinding, "rebind.test");
    expect(private10.error).toMatch(/rebind\.test resolves to 10\.0\.0\.1 is in the private range 10\.0\.0\.0\/8/);
    const metadata = await post("/ok", LOOPBACK, 2000, rebinding, "rebind.test");
    expect(metadata.error).toMatch(/169\.254\.169\.254 is the cloud metadata address/);
    expect(bodies.length).toBe(before);
    // Resolving to an address the policy lists, it is delivered to that checked address.
    answers = [["127.0.0.1"]];
    expect(await post("/ok", LOOPBACK, 2000, rebinding, "rebind.test")).toMatchObject({ responseStatus: 204 });
    expect(bodies.length).toBe(before + 1);
  });

  it("does not follow redirects, reports Retry-After, and gives up after the timeout", async () => {
    expect(await post("/moved")).toMatchObject({ responseStatus: 302, error: "HTTP 302" });
    expect(await post("/busy")).toEqual({ responseStatus: 503, error: "HTTP 503", retryAfter: "7" });
    expect(await post("/slow", LOOPBACK, 300)).toEqual({
      responseStatus: null,
      error: "no response within 0.3 s",
      retryAfter: null,
    });
  });
});
