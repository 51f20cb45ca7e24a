import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.ts";

async function addressWith(trustedProxies: number, forwardedFor?: string) {
  const app = new Hono().get("/", (c) => c.text(clientAddress(c, trustedProxies)));
  const res = await app.request("/", { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });
  return res.text();
}

describe("the client address", () => {
  it("ignores X-Forwarded-For unless proxies are trusted (the socket's peer; unknown outside the node server)", async () => {
    expect(await addressWith(0, "10.0.0.1")).toBe("unknown");
  });

  it("with n trusted proxies takes the n-th entry from the right, never the client's own entries further left", async () => {
    expect(await addressWith(1, "6.6.6.6, 198.51.100.7")).toBe("198.51.100.7");
    expect(await addressWith(2, "6.6.6.6, 198.51.100.7, 10.0.0.2")).toBe("198.51.100.7");
    expect(await addressWith(1)).toBe("unknown"); // no header: the socket's peer
  });
});
