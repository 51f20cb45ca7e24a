// Whether a request carries a body, from its headers alone (RFC 9112 §6.3: Content-Length or Transfer-Encoding).
// Asking c.req.raw instead makes the node server build a whole fetch Request, too dear for every GET.
import type { Context } from "hono";

export function hasBody(c: Context): boolean {
  return c.req.header("transfer-encoding") !== undefined || (c.req.header("content-length") ?? "0") !== "0";
}
