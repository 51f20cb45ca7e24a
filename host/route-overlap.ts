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

/** Whether one request could match both paths, split into segments of the same count: each segment equal, or a
 * parameter on either side. */
const overlap = (left: string[], right: string[]): boolean =>
  left.every((segment, i) => segment === right[i] || isParam(segment) || isParam(right[i] ?? ""));

/** The first pair of routes of two different plugins that one request could match, as a message; undefined if none.
 * Only routes of one method and one segment count can match one request: each such group is compared within itself
 * (all pairs at once took ~0.1 s of every host's start). */
export function routeOverlap(routes: MountedRoute[]): string | undefined {
  const groups = new Map<string, { route: MountedRoute; segments: string[] }[]>();
  for (const route of routes) {
    if (route.method === "ALL") continue; // middleware registrations, not endpoints
    const segments = route.path.split("/");
    const key = `${route.method} ${segments.length}`;
    const group = groups.get(key) ?? [];
    group.push({ route, segments });
    groups.set(key, group);
  }
  for (const group of groups.values())
    for (let i = 0; i < group.length; i++)
      for (let j = i + 1; j < group.length; j++) {
        const [a, b] = [group[i]!, group[j]!];
        if (a.route.pluginId === b.route.pluginId || !overlap(a.segments, b.segments)) continue;
        return `Plugins "${a.route.pluginId}" and "${b.route.pluginId}" both route ${a.route.method} requests that match ${a.route.path} and ${b.route.path}; the mount order would decide which answers. Change one path.`;
      }
  return undefined;
}
