// A transaction request's `description`: a short human summary, e.g. "Mint 1,500.5 EURD to 0x7099…79C8". The
// route that knows the domain (a token's symbol and decimals) writes it; otherwise the kind, the decoded call with
// its arguments abridged, and the target. Never the calldata itself: that is the request's `data`.
import { type Address, decodeFunctionData, formatUnits, getAddress, type Hex, isAddress } from "viem";
import { PLATFORM_FUNCTIONS } from "../chain/platform-abi.ts";

const MAX_LENGTH = 200;
const LIST_SHOWN = 3;

/** 0x7099…79C8: enough to recognise an address in a sentence. */
export function shortAddress(address: string): string {
  const checksummed = isAddress(address, { strict: false }) ? getAddress(address) : address;
  return `${checksummed.slice(0, 6)}…${checksummed.slice(-4)}`;
}

/** Raw units as a decimal amount with thousands separators: 1500500000000000000000 with 18 decimals → 1,500.5. */
export function formatAmount(raw: bigint | string, decimals: number): string {
  const [whole = "0", fraction] = formatUnits(BigInt(raw), decimals).split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = sign ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${fraction ? `.${fraction}` : ""}`;
}

/** "0x7099…79C8", or "0x7099…79C8 and 2 others". */
export function accountList(accounts: readonly string[]): string {
  const [first] = accounts;
  if (first === undefined) return "nobody";
  const others = accounts.length - 1;
  return others === 0 ? shortAddress(first) : `${shortAddress(first)} and ${others} other${others > 1 ? "s" : ""}`;
}

/** One argument, abridged: addresses shortened, long byte strings by their length, long lists by their count. */
function abridged(value: unknown): string {
  if (Array.isArray(value)) {
    const shown = value.slice(0, LIST_SHOWN).map(abridged);
    return `[${shown.join(", ")}${value.length > LIST_SHOWN ? `, +${value.length - LIST_SHOWN} more` : ""}]`;
  }
  if (value && typeof value === "object") return `(${Object.values(value).map(abridged).join(", ")})`;
  if (typeof value === "string" && isAddress(value, { strict: false })) return shortAddress(value);
  if (typeof value === "string" && /^0x[0-9a-fA-F]{21,}$/.test(value)) return `${(value.length - 2) / 2} bytes`;
  return String(value);
}

function capped(text: string): string {
  return text.length <= MAX_LENGTH ? text : `${text.slice(0, MAX_LENGTH - 1)}…`;
}

/** The fallback summary: "token.mint: batchMint([0x7099…79C8], [5]) on 0x5FbD…0aa3", or "kind on 0x…" if undecodable. */
export function describeCall(kind: string, to: Address | string, data: string): string {
  const target = shortAddress(to);
  try {
    const { functionName, args } = decodeFunctionData({ abi: PLATFORM_FUNCTIONS, data: data as Hex });
    return capped(`${kind}: ${functionName}(${(args ?? []).map(abridged).join(", ")}) on ${target}`);
  } catch {
    return `${kind} on ${target}`;
  }
}
