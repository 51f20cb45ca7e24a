// The operations audit log never keeps a credential written inside a URL: user info, and the values of query
// parameters that name a secret, become REDACTED. Strings that are not URLs are kept as they are.
import { storableText } from "../../host/db/storable-text.ts";

const SECRET_PARAMS = /token|secret|key|password|passwd|pwd|auth|signature|sig|credential/i;

export function redactUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  if (!url.host && !url.username) return value;
  if (url.username) url.username = "REDACTED";
  if (url.password) url.password = "REDACTED";
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMS.test(name)) url.searchParams.set(name, "REDACTED");
  }
  return url.toString();
}

/** Deeper than any body the routes accept: a hostile one is cut there, not followed to a stack overflow. */
const MAX_DEPTH = 8;

/** A request body as the audit log keeps it: every string that is a URL redacted, down to MAX_DEPTH levels. */
export function redactBody(body: unknown, depth = 0): unknown {
  if (typeof body === "string") return redactUrl(storableText(body));
  if (body && typeof body === "object" && depth >= MAX_DEPTH) return "[truncated]";
  if (Array.isArray(body)) return body.map((value) => redactBody(value, depth + 1));
  if (body && typeof body === "object") {
    return Object.fromEntries(
      Object.entries(body).map(([key, value]) => [storableText(key), redactBody(value, depth + 1)]),
    );
  }
  return body;
}
