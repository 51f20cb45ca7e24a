// CIDR ranges (`10.0.0.0/8`, `fd00::/8`) as node:net understands them, and IPv4-mapped IPv6 addresses unwrapped.
import { isIP } from "node:net";

export interface Cidr {
  network: string;
  prefix: number;
  family: "ipv4" | "ipv6";
}

/** `10.0.0.0/8` → its network, prefix and family; a bare address is its own /32 or /128; invalid → undefined. */
export function parseCidr(text: string): Cidr | undefined {
  const [address = "", bits, extra] = text.trim().split("/");
  if (extra !== undefined) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return undefined;
  return { network: address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

/** `::ffff:10.0.0.1` or `::ffff:a00:1` (an IPv4 address written as IPv6) → `10.0.0.1`; anything else as it is. */
export function unmappedAddress(address: string): string {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address;
  const [high, low] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}
