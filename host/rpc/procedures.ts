// The API's operations as /api/rpc procedures: one per /api/v2 operation of the OpenAPI document, named from its path
// (or its own operationId), so a route written once is served by both transports.
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

/** A route as the app's OpenAPI registry holds it (zod-to-openapi's RouteConfig, the parts read here). */
export interface RegisteredRoute {
  method: string;
  path: string;
  operationId?: string;
  request?: { body?: unknown };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/**
 * Routes with no place in a JSON request-response transport: a stream (text/event-stream), a file download
 * (application/octet-stream) or a file upload (a multipart/form-data body).
 */
function outsideJsonTransport(route: RegisteredRoute): boolean {
  const answersJsonless = Object.values(route.responses ?? {}).some(
    (r) => r.content && ("text/event-stream" in r.content || "application/octet-stream" in r.content),
  );
  const body = route.request?.body as { content?: Record<string, unknown> } | undefined;
  return answersJsonless || (body?.content !== undefined && "multipart/form-data" in body.content);
}

/**
 * Every procedure of the registered /api/v2 routes, each named on its route as its operationId (with dots), so the
 * OpenAPI document names each operation by its procedure. Two routes that would share a name stop the build (give
 * one an operationId).
 */
export function rpcProcedures(routes: RegisteredRoute[]): Procedure[] {
  const procedures: Procedure[] = [];
  const taken = new Map<string, string>();
  for (const route of routes) {
    const method = route.method.toLowerCase();
    const { path } = route;
    if (
      !path.startsWith(REST_PREFIX) ||
      !(METHODS as readonly string[]).includes(method) ||
      outsideJsonTransport(route)
    )
      continue;
    const name = procedureName(method, path, route.operationId);
    const described = `${method.toUpperCase()} ${path}`;
    const other = taken.get(name);
    if (other)
      throw new Error(`${described} and ${other} would both be the procedure "${name}": give one an operationId`);
    taken.set(name, described);
    route.operationId = name.split("/").join(".");
    procedures.push({
      name,
      method: method.toUpperCase() as Procedure["method"],
      path,
      params: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
      hasBody: route.request?.body !== undefined,
    });
  }
  return procedures;
}
