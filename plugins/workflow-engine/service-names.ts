// The spec's serviceName and serviceKey match ^[a-zA-Z0-9_-]+$, while graphile-worker's task identifiers and job keys
// hold ':' (host:send, send:31337:0x…). Both are written reversibly: every character outside [A-Za-z0-9-] (the
// underscore included) becomes `_` and its two hex digits, e.g. host:send ↔ host_3asend.
export function toServiceName(identifier: string): string {
  return identifier.replace(/[^A-Za-z0-9-]/g, (ch) => {
    const code = ch.charCodeAt(0);
    // Outside Latin-1 (never in our identifiers) a character keeps a 4-digit form after `_u`.
    return code < 256 ? `_${code.toString(16).padStart(2, "0")}` : `_u${code.toString(16).padStart(4, "0")}`;
  });
}

export function fromServiceName(name: string): string {
  return name.replace(/_u([0-9a-f]{4})|_([0-9a-f]{2})/g, (_, wide: string | undefined, narrow: string | undefined) =>
    String.fromCharCode(Number.parseInt(wide ?? narrow ?? "0", 16)),
  );
}
