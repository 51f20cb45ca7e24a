// Which URLs a webhook may be sent to (SSRF): https to a public address; http or https to a special-purpose address
// (loopback, private, link-local…) only in a range WEBHOOKS_PRIVATE_TARGET_RANGES lists (the embedded defaults list
// loopback); the cloud metadata addresses only when listed exactly. Checked when an endpoint is saved and again at each
// delivery on the addresses the name resolves to then (post.ts connects to those checked addresses only).
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { parseCidr, unmappedAddress } from "../../host/net/cidr.ts";

/** The special-purpose ranges (IANA registries), each named in a refusal; the first that holds an address names it. */
const SPECIAL_RANGES: readonly [cidr: string, name: string][] = [
  ["127.0.0.0/8", "loopback"],
  ["::1/128", "loopback"],
  ["0.0.0.0/8", "this-network (unspecified)"],
  ["::/128", "unspecified"],
  ["::/96", "IPv4-compatible (deprecated)"],
  ["10.0.0.0/8", "private"],
  ["172.16.0.0/12", "private"],
  ["192.168.0.0/16", "private"],
  ["fc00::/7", "unique-local (private)"],
  ["169.254.0.0/16", "link-local"],
  ["fe80::/10", "link-local"],
  ["100.64.0.0/10", "shared address space (carrier-grade NAT)"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["2001:db8::/32", "documentation"],
  ["198.18.0.0/15", "benchmarking"],
  ["224.0.0.0/4", "multicast"],
  ["ff00::/8", "multicast"],
  ["240.0.0.0/4", "reserved"],
  ["64:ff9b::/96", "NAT64 (an IPv4 address behind a translator)"],
  ["64:ff9b:1::/48", "NAT64 (an IPv4 address behind a translator)"],
  ["2002::/16", "6to4 (an IPv4 address behind a relay)"],
  ["2001::/32", "Teredo (an IPv4 address behind a relay)"],
];

/** The cloud providers' instance metadata services: credentials live there. */
export const METADATA_ADDRESSES = ["169.254.169.254", "fd00:ec2::254"] as const;

const familyOf = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

const special = SPECIAL_RANGES.map(([cidr, name]) => {
  const range = parseCidr(cidr)!;
  const list = new BlockList();
  list.addSubnet(range.network, range.prefix, range.family);
  return { cidr, name, list };
});

/** The ranges an operator allowed (WEBHOOKS_PRIVATE_TARGET_RANGES), ready to check addresses against. */
export interface TargetPolicy {
  allowed: BlockList;
  /** The metadata addresses listed exactly (a /32 or /128 of their own). */
  metadataAllowed: ReadonlySet<string>;
  ranges: readonly string[];
}

export function targetPolicy(ranges: readonly string[]): TargetPolicy {
  const allowed = new BlockList();
  const metadataAllowed = new Set<string>();
  for (const entry of ranges) {
    const range = parseCidr(entry);
    if (!range) throw new Error(`${entry} is not a CIDR range`);
    allowed.addSubnet(range.network, range.prefix, range.family);
    const exact = range.prefix === (range.family === "ipv4" ? 32 : 128);
    if (exact)
      for (const metadata of METADATA_ADDRESSES)
        if (familyOf(metadata) === range.family && sameAddress(metadata, range.network)) metadataAllowed.add(metadata);
  }
  return { allowed, metadataAllowed, ranges: [...ranges] };
}

const SETTING = "WEBHOOKS_PRIVATE_TARGET_RANGES";

/** Why `address` may not be a webhook's target under `policy`, naming the rule; null when it may. */
export function refusedAddress(address: string, policy: TargetPolicy): string | null {
  const plain = unmappedAddress(address);
  if (isIP(plain) === 0) return `${address} is not an IP address`;
  const family = familyOf(plain);
  const metadata = METADATA_ADDRESSES.find((m) => familyOf(m) === family && sameAddress(m, plain));
  if (metadata) {
    if (policy.metadataAllowed.has(metadata)) return null;
    return `${plain} is the cloud metadata address, allowed only when ${SETTING} lists ${metadata}/${family === "ipv4" ? 32 : 128}`;
  }
  const range = special.find((r) => r.list.check(plain, family));
  if (!range || policy.allowed.check(plain, family)) return null;
  return `${plain} is in the ${range.name} range ${range.cidr}, which ${SETTING} does not list`;
}

function sameAddress(a: string, b: string): boolean {
  const one = new BlockList();
  one.addAddress(a, familyOf(a));
  return one.check(b, familyOf(b));
}

/** A public address: in no special-purpose range (nor the metadata addresses). */
export function isPublicAddress(address: string): boolean {
  return refusedAddress(address, targetPolicy([])) === null;
}

/**
 * Ports browsers refuse to fetch from (the Fetch standard's "bad ports"): mail, shells, name and file services that a
 * request could be smuggled into.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Every address a host name resolves to (all families). */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((found) => found.address);

/** Why the URL's address (given, or every one its host resolves to) may not be targeted; null when it may. */
export async function refusedTarget(
  url: string,
  policy: TargetPolicy,
  resolve: Resolve = systemResolve,
): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "url is not a valid URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return `url's scheme ${parsed.protocol.slice(0, -1)} is not allowed: webhooks are sent over https (or http to a listed private range)`;
  if (parsed.username || parsed.password)
    return "url must not carry credentials (user:password@): sign-in data belongs in the webhook secret";
  const port = Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80));
  if (BAD_PORTS.has(port)) return `url's port ${port} is a non-HTTP service port (the Fetch standard's bad ports)`;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return `url's host ${host} does not resolve`;
  }
  // Every address: a name with one public and one private address must not reach the private one.
  for (const address of addresses) {
    const refused = refusedAddress(address, policy);
    if (refused) return isIP(host) ? `url's address ${refused}` : `url's host ${host} resolves to ${refused}`;
  }
  if (parsed.protocol === "http:" && addresses.some(isPublicAddress))
    return `url must use https: ${host} is a public address (http only to a range ${SETTING} lists)`;
  return null;
}
