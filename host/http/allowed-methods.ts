// Which methods the composed routes answer on a path: a request that matches no route but a known path with another
// method is answered 405 METHOD_NOT_ALLOWED with `Allow`, not 404 (RFC 9110 §15.5.6).
export interface RouteEntry {
  method: string;
  /** Hono's form: `/api/v2/tokens/:address`, `*` for the rest of the path. */
  path: string;
}

/** Whether a concrete request path matches a route pattern (parameters match one non-empty segment). */
export function pathMatches(pattern: string, path: string): boolean {
  const wanted = pattern.split("/");
  const given = path.split("/");
  for (let i = 0; i < wanted.length; i++) {
    const segment = wanted[i] as string;
    if (segment === "*" && i === wanted.length - 1) return true;
    const actual = given[i];
    if (actual === undefined) return false;
    if (segment.startsWith(":") ? actual === "" : segment !== actual) return false;
  }
  return wanted.length === given.length;
}

/** The methods of the routes matching `path`, HEAD beside GET (Hono answers it), in a stable order; empty if none. */
export function allowedMethods(routes: readonly RouteEntry[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === "ALL" || !pathMatches(route.path, path)) continue; // ALL: middleware, not an endpoint
    methods.add(route.method.toUpperCase());
    if (route.method.toUpperCase() === "GET") methods.add("HEAD");
  }
  const order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  return [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
