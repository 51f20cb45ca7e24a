// What the host refuses in request text before any route sees it: PostgreSQL text cannot hold NUL (U+0000), and
// stored text must be well-formed Unicode, so a body must be UTF-8 (declared so, if declared), without a BOM,
// valid byte by byte, its JSON strings must hold no NUL and no lone UTF-16 surrogate (`"\ud800"`), and it must nest
// at most MAX_JSON_DEPTH deep.

const UTF8_CHARSETS = new Set(["utf-8", "utf8"]);
/** A surrogate not paired with its other half (matched on UTF-16 code units: no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** JSON escapes that may decode to NUL or to a surrogate: only then is the body parsed here. */
const SUSPECT_ESCAPE = /\\u(0000|d[89a-f])/i;
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The deepest nesting of arrays and objects a JSON body may have. No route's body comes near it; parsers and
 * validators that recurse (oRPC's codec, zod) would otherwise overflow their stack on a body nested thousands deep.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether a JSON text nests arrays and objects deeper than `max`: one pass over the text, brackets in strings skipped. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

/** Whether a string holds something stored text cannot: NUL or a lone surrogate. */
export function textProblem(value: string): string | undefined {
  if (value.includes("\0")) return "must not contain NUL characters";
  if (LONE_SURROGATE.test(value)) return "must not contain lone UTF-16 surrogates";
  return undefined;
}

/** A Content-Type's charset parameter, when it names anything but UTF-8. */
export function foreignCharset(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/;\s*charset\s*=\s*("?)([^";\s]*)\1/i);
  const charset = match?.[2]?.toLowerCase();
  return charset === undefined || UTF8_CHARSETS.has(charset) ? undefined : charset;
}

/** The body as text, or why it is refused: a byte order mark, or bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { problem: string } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { problem: "The body must not start with a byte order mark (send UTF-8 without a BOM)" };
  try {
    return { text: decoder.decode(bytes) };
  } catch {
    return { problem: "The body is not valid UTF-8" };
  }
}

/** The first string (key or value) of a JSON text with a NUL or a lone surrogate, and what is wrong with it. */
export function jsonStringProblem(text: string): string | undefined {
  if (text.includes("\0")) return "must not contain NUL characters"; // raw, outside any escape
  if (!SUSPECT_ESCAPE.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // not JSON: the route's validator answers
  }
  return firstProblem(parsed);
}

/** Walks the parsed JSON with a stack of its own, not recursion: a body nested thousands deep is still checked. */
function firstProblem(root: unknown): string | undefined {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      const problem = textProblem(value);
      if (problem) return problem;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push(value[i]);
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        pending.push(item, key); // the key is checked before its value
      }
    }
  }
  return undefined;
}
