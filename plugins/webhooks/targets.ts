// Which URLs a webhook may be sent to: https on a public address, unless WEBHOOKS_ALLOW_PRIVATE_TARGETS=true (the
// embedded defaults), so a subscriber cannot make the platform call into its own network (SSRF). Checked when an
// endpoint is saved and again before each delivery (a name may resolve elsewhere by then).
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv6");

/** Loopback, private, link-local, carrier-grade NAT, multicast or unspecified. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]; // IPv4-mapped IPv6
  if (mapped) return PRIVATE.check(mapped, "ipv4");
  const family = isIP(address);
  return family === 4 ? PRIVATE.check(address, "ipv4") : family === 6 ? PRIVATE.check(address, "ipv6") : true;
}

/** Why the URL is refused, or null when it may be used. */
export async function refusedTarget(url: string, allowPrivate: boolean): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "url is not a valid URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "url must use https";
  if (parsed.username || parsed.password) return "url must not carry credentials";
  if (allowPrivate) return null;
  if (parsed.protocol !== "https:") return "url must use https";
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "url must not point at a loopback address";
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (found) => found.map((a) => a.address),
        () => null,
      );
  if (!addresses) return `url's host ${host} does not resolve`;
  if (addresses.some(isPrivateAddress)) return "url must not point at a loopback, private or link-local address";
  return null;
}
