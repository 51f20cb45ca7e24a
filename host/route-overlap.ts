// Plugins' routes are mounted one sub-app after another, and a router answers with the first route that matches:
// were a path of one plugin to match a request another plugin's path was meant for, the mount order would decide
// who answers. The host refuses that at start, so the order never matters.
export interface MountedRoute {
  pluginId: string;
  method: string;
  /** Hono's form: `/api/v2/tokens/:address`. */
  path: string;
}

const isParam = (segment: string) => segment.startsWith(":") || segment === "*";

/** Whether one request could match both paths (same length; each segment equal, or a parameter on either side). */
function overlap(a: string, b: string): boolean {
  const left = a.split("/");
  const right = b.split("/");
  if (left.length !== right.length) return false;
  return left.every((segment, i) => segment === right[i] || isParam(segment) || isParam(right[i] ?? ""));
}

/** The first pair of routes of two different plugins that one request could match, as a message; undefined if none. */
export function routeOverlap(routes: MountedRoute[]): string | undefined {
  const endpoints = routes.filter((r) => r.method !== "ALL"); // middleware registrations, not endpoints
  for (let i = 0; i < endpoints.length; i++) {
    for (let j = i + 1; j < endpoints.length; j++) {
      const a = endpoints[i] as MountedRoute;
      const b = endpoints[j] as MountedRoute;
      if (a.pluginId === b.pluginId || a.method !== b.method || !overlap(a.path, b.path)) continue;
      return `Plugins "${a.pluginId}" and "${b.pluginId}" both route ${a.method} requests that match ${a.path} and ${b.path}; the mount order would decide which answers. Change one path.`;
    }
  }
  return undefined;
}
