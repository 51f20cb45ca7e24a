// The API's operations as /api/rpc procedures: one per /api/v2 operation of the OpenAPI document, named from its path
// (or its own operationId), so a route written once is served by both transports.
import type { OpenApiDocument } from "../openapi/api-documents.ts";

export const RPC_PREFIX = "/api/rpc";
const REST_PREFIX = "/api/v2/";
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export interface Procedure {
  /** Its path under /api/rpc, e.g. `tokens/mint/post`; the document's operationId is the same with dots. */
  name: string;
  method: Uppercase<(typeof METHODS)[number]>;
  /** The REST route's template, e.g. `/api/v2/tokens/{tokenAddress}/mint`. */
  path: string;
  /** The path's parameters, taken from the input by name. */
  params: string[];
  /** The input's other fields are the body (routes that take one), else the query string. */
  hasBody: boolean;
}

const camel = (segment: string) => segment.replace(/[-_.]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * A route's procedure name: its own `operationId` (dots become slashes), else its path's fixed segments in camelCase
 * and a verb: `read` for a GET that ends in a parameter (one item), `get` for any other GET, else the method.
 * `POST /api/v2/tokens/{tokenAddress}/mint` is `tokens/mint/post`, `GET /api/v2/webhooks/endpoints/{id}` is
 * `webhooks/endpoints/read`.
 */
export function procedureName(method: string, path: string, operationId?: string): string {
  if (operationId) return operationId.split(".").join("/");
  const segments = path.slice(REST_PREFIX.length).split("/").filter(Boolean);
  const fixed = segments.filter((s) => !s.startsWith("{")).map(camel);
  const lower = method.toLowerCase();
  const verb = lower === "get" ? (segments.at(-1)?.startsWith("{") ? "read" : "get") : lower;
  return [...fixed, verb].join("/");
}

interface Operation {
  operationId?: string;
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/** A stream answers text/event-stream: it has no place in a request-response transport. */
function isStream(operation: Operation): boolean {
  return Object.values(operation.responses ?? {}).some((r) => r.content && "text/event-stream" in r.content);
}

/** Every procedure of the document; two operations that would share a name stop the build (give one an operationId). */
export function rpcProcedures(document: OpenApiDocument): Procedure[] {
  const procedures: Procedure[] = [];
  const taken = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(REST_PREFIX)) continue;
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation || isStream(operation)) continue;
      const name = procedureName(method, path, operation.operationId);
      const route = `${method.toUpperCase()} ${path}`;
      const other = taken.get(name);
      if (other)
        throw new Error(`${route} and ${other} would both be the procedure "${name}": give one an operationId`);
      taken.set(name, route);
      const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      procedures.push({
        name,
        method: method.toUpperCase() as Procedure["method"],
        path,
        params,
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return procedures;
}
