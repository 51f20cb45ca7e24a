// Drops the components a document's paths never reference (directly or through other components).

export type Components = Record<string, Record<string, unknown> | undefined>;

const LOCAL_COMPONENT_REF = /^#\/components\/([^/]+)\/(.+)$/;

const unescapePointer = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** Every `#/components/<type>/<name>` that `value` references, as [type, name] pairs. */
function collectRefs(value: unknown, found: [string, string][]): [string, string][] {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, found);
  } else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const match = key === "$ref" && typeof child === "string" ? LOCAL_COMPONENT_REF.exec(child) : null;
      if (match) found.push([match[1], unescapePointer(match[2])]);
      else collectRefs(child, found);
    }
  }
  return found;
}

/**
 * The components reachable from `roots`, plus every component of the `alwaysKeep` types (e.g. securitySchemes,
 * which documents name by key rather than by $ref), in their original order. Empty component types are left out.
 */
export function pruneComponents(components: Components, roots: unknown, alwaysKeep: string[] = []): Components {
  const reachable = new Set<string>();
  const keyOf = (type: string, name: string) => `${type}\u0000${name}`;
  const pending = collectRefs(roots, []);
  for (const type of alwaysKeep) {
    for (const name of Object.keys(components[type] ?? {})) pending.push([type, name]);
  }
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [type, name] = next;
    const component = components[type]?.[name];
    if (component === undefined || reachable.has(keyOf(type, name))) continue;
    reachable.add(keyOf(type, name));
    collectRefs(component, pending);
  }
  const kept: Components = {};
  for (const [type, byName] of Object.entries(components)) {
    const names = Object.keys(byName ?? {}).filter((name) => reachable.has(keyOf(type, name)));
    if (names.length) kept[type] = Object.fromEntries(names.map((name) => [name, byName?.[name]]));
  }
  return kept;
}
