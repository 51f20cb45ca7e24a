// A procedure's input as the REST request its route answers: path parameters by name, the other fields as the body
// (routes that take one) or the query string; the caller's headers (session, context headers, Idempotency-Key, Prefer)
// go with it.
import { badRequest } from "../errors/api-error.ts";
import type { Procedure } from "./procedures.ts";

/** Headers that describe the RPC request's own body or connection, not the operation. */
const NOT_FORWARDED = new Set([
  "content-length",
  "content-type",
  "content-encoding",
  "transfer-encoding",
  "connection",
]);

/** `{filter: {status: "QUEUED"}, page: {limit: 10}}` is `filter[status]=QUEUED&page[limit]=10`; arrays repeat the key. */
function appendQuery(query: URLSearchParams, key: string, value: unknown) {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const member of value) appendQuery(query, key, member);
  else if (typeof value === "object")
    for (const [name, member] of Object.entries(value)) appendQuery(query, `${key}[${name}]`, member);
  else query.append(key, String(value));
}

export function restRequest(procedure: Procedure, input: unknown, outer: Request): Request {
  if (input !== undefined && (input === null || typeof input !== "object" || Array.isArray(input)))
    throw badRequest("The procedure's input must be an object", [{ path: "", message: "expected an object" }]);
  const fields = { ...(input as Record<string, unknown> | undefined) };
  let path = procedure.path;
  for (const param of procedure.params) {
    const value = fields[param];
    if (typeof value !== "string" && typeof value !== "number")
      throw badRequest(`${param} is required`, [{ path: param, message: "required: a string" }]);
    path = path.replace(`{${param}}`, encodeURIComponent(String(value)));
    delete fields[param];
  }
  const url = new URL(path, outer.url);
  const headers = new Headers();
  for (const [name, value] of outer.headers) if (!NOT_FORWARDED.has(name)) headers.set(name, value);
  if (procedure.hasBody) {
    headers.set("content-type", "application/json");
    return new Request(url, { method: procedure.method, headers, body: JSON.stringify(fields) });
  }
  for (const [key, value] of Object.entries(fields)) appendQuery(url.searchParams, key, value);
  return new Request(url, { method: procedure.method, headers });
}
