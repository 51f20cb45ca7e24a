// The operations audit log never keeps a credential written inside a URL: user info, and the values of query
// parameters that name a secret, become REDACTED. Strings that are not URLs are kept as they are.
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

/** A request body as the audit log keeps it: every string that is a URL redacted, at any depth. */
export function redactBody(body: unknown): unknown {
  if (typeof body === "string") return redactUrl(body);
  if (Array.isArray(body)) return body.map(redactBody);
  if (body && typeof body === "object") {
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, redactBody(value)]));
  }
  return body;
}
