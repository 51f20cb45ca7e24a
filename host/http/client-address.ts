// The address a request came from, for per-address limits: the socket's peer, or with TRUST_PROXY=n (n reverse
// proxies in front) the n-th X-Forwarded-For entry from the right, the one the outermost trusted proxy appended.
// Any entry further left is the client's own word and is never used.
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

export function clientAddress(c: Context, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const hops = (c.req.header("x-forwarded-for") ?? "").split(",").map((s) => s.trim());
    const entry = hops[hops.length - trustedProxies];
    if (entry) return entry.slice(0, 64);
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown"; // not served by @hono/node-server (app.request in tests of parts)
  }
}
