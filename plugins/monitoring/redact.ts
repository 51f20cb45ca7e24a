// What a stored request log may keep of headers, URLs and bodies: credentials, secrets, signatures, PIN codes,
// passwords, private keys and `walletVerification` are replaced by REDACTED wherever they sit (by field, header or
// query name, and API keys by their shape anywhere), and bodies are cut to a bounded size.
import { storableText } from "../../host/db/storable-text.ts";

export const REDACTED = "REDACTED";
/** Stored bodies are cut to this many characters. */
export const MAX_BODY_CHARS = 4096;
const MAX_HEADER_CHARS = 512;
const MAX_DEPTH = 8;
const MAX_ARRAY_ITEMS = 20;

/** Field, header and query names whose values are never stored, compared without case and separators. */
const SECRET_NAMES = new Set([
  "key",
  "apikey",
  "xapikey",
  "pin",
  "otp",
  "totp",
  "accesstoken",
  "refreshtoken",
  "idtoken",
  "sessiontoken",
  "authtoken",
  "seed",
  "setcookie",
]);
const SECRET_PARTS = [
  "password",
  "passphrase",
  "secret",
  "privatekey",
  "mnemonic",
  "signature",
  "pincode",
  "walletverification",
  "credential",
  "authorization",
  "cookie",
];
/** An API key (`svc_` and 43 base64url characters) or a bearer credential, wherever it appears in text. */
const SECRET_TEXT = /svc_[A-Za-z0-9_-]{20,}|Bearer\s+[A-Za-z0-9._~+/=-]+/g;

export function isSecretName(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return SECRET_NAMES.has(n) || SECRET_PARTS.some((part) => n.includes(part));
}

const scrubText = (text: string) => storableText(text).replace(SECRET_TEXT, REDACTED);

/** A deep copy with every secret replaced; deep or long structures are cut (marked, never silently). */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? String(value) : value;
  if (depth >= MAX_DEPTH) return "[truncated]";
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ARRAY_ITEMS).map((item) => redactValue(item, depth + 1));
    if (value.length > MAX_ARRAY_ITEMS) items.push(`[${value.length - MAX_ARRAY_ITEMS} more items]`);
    return items;
  }
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) {
    // A one-time code (`code: "123456"`) is a secret; an error code (`code: "BAD_REQUEST"`) is not.
    const otp = name === "code" && typeof v === "string" && /^\d{4,10}$/.test(v);
    out[storableText(name)] = isSecretName(name) || otp ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}

/** A body as stored: JSON redacted then cut; text that is not JSON is kept only as its size. */
export function redactBody(body: unknown): string | null {
  if (body === undefined || body === null || body === "") return null;
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return `[${Buffer.byteLength(body)} bytes of non-JSON text]`;
    }
  }
  const text = JSON.stringify(redactValue(value));
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}…[truncated]` : text;
}

export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = isSecretName(name) ? REDACTED : scrubText(value).slice(0, MAX_HEADER_CHARS);
  });
  return out;
}

/** The path and query with secret query values replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return scrubText(url).slice(0, 2048);
  const params = new URLSearchParams(url.slice(at + 1));
  for (const name of new Set(params.keys())) if (isSecretName(name)) params.set(name, REDACTED);
  return scrubText(`${url.slice(0, at)}?${params.toString()}`).slice(0, 2048);
}
