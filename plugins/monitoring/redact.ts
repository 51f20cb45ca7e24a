// What a stored request log may keep of headers, URLs, bodies and error messages: credentials, secrets, signatures,
// PIN codes, passwords, private keys and `walletVerification` are replaced by REDACTED wherever they sit, by field,
// header or query name, and by their shape in any text (redactSecrets: API keys, webhook secrets, bearer tokens,
// 32-byte hex private keys); bodies are cut to a bounded size.
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
/**
 * Secret-shaped text, wherever it appears: an API key (`svc_` and 43 base64url characters), a webhook signing secret
 * (`whsec_` and base64), a bearer credential, and a 0x-prefixed 32-byte hex value (a private key's shape; a
 * transaction hash has it too, kept only where its field or path parameter names a hash).
 */
const SECRET_SHAPES = /svc_[A-Za-z0-9_-]{20,}|whsec_[A-Za-z0-9+/=_-]{16,}|Bearer\s+[A-Za-z0-9._~+/=-]+/gi;
const HEX_32_BYTES = /(?<![0-9A-Za-z])0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/g;
/** A field or path parameter that names a hash (transactionHash, userOpHash): its 32-byte hex value is not a key. */
const HASH_NAME = /hash$/i;

/** `text` with every secret-shaped value replaced by REDACTED; `keepHashes`: 32-byte hex values are kept. */
export function redactSecrets(text: string, options: { keepHashes?: boolean } = {}): string {
  const scrubbed = text.replace(SECRET_SHAPES, REDACTED);
  return options.keepHashes ? scrubbed : scrubbed.replace(HEX_32_BYTES, REDACTED);
}

export function isSecretName(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return SECRET_NAMES.has(n) || SECRET_PARTS.some((part) => n.includes(part));
}

const scrubText = (text: string, keepHashes = false) => redactSecrets(storableText(text), { keepHashes });

/** A deep copy with every secret replaced; deep or long structures are cut (marked, never silently). */
export function redactValue(value: unknown, depth = 0, keepHashes = false): unknown {
  if (typeof value === "string") return scrubText(value, keepHashes);
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
    out[storableText(name)] = isSecretName(name) || otp ? REDACTED : redactValue(v, depth + 1, HASH_NAME.test(name));
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

/**
 * The path and query with secrets replaced: secret-named query values, and secret-shaped text anywhere except a path
 * segment that the route's `template` (`/api/v2/blockchain-transactions/{transactionHash}`) names a hash.
 */
export function redactUrl(url: string, template?: string | null): string {
  const at = url.indexOf("?");
  const templateSegments = template?.split("/") ?? [];
  const path = (at < 0 ? url : url.slice(0, at))
    .split("/")
    .map((segment, i) => scrubEncoded(segment, /^\{[A-Za-z0-9_]*hash\}$/i.test(templateSegments[i] ?? "")))
    .join("/");
  if (at < 0) return path.slice(0, 2048);
  const params = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(url.slice(at + 1)))
    params.append(
      scrubText(name),
      isSecretName(name) ? REDACTED : scrubText(value, HASH_NAME.test(name.replace(/\]$/, ""))),
    );
  return `${path}?${params.toString()}`.slice(0, 2048);
}

/** A percent-encoded path segment, scrubbed as the text it encodes (a `+` or `/` of a secret is encoded there). */
function scrubEncoded(segment: string, keepHashes: boolean): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return scrubText(segment, keepHashes);
  }
  const scrubbed = scrubText(decoded, keepHashes);
  return scrubbed === storableText(decoded) ? storableText(segment) : encodeURIComponent(scrubbed);
}
