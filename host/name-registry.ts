// A registry of names (error codes, permissions, revert rules) the host looks up at run time: the host core's own
// entries, then what the composed plugins register once per process. Plugins declare names as data, so the host
// holds none of theirs; an unknown name is a programming error (see scripts/declared-names.test.ts).
export interface NameRegistry<V> {
  /** Adds plugin entries; the same entry again is a no-op, another value under a taken name throws. */
  register(entries: Iterable<[string, V]>): void;
  /** The entry, or a plain Error naming what is unknown. */
  get(name: string): V;
  find(name: string): V | undefined;
  /** Core entries first, then the registered ones. */
  entries(): [string, V][];
}

export function createNameRegistry<V>(what: string, core: Record<string, V>): NameRegistry<V> {
  const known = new Map<string, V>(Object.entries(core));
  return {
    register(entries) {
      for (const [name, value] of entries) {
        const existing = known.get(name);
        if (existing !== undefined && existing !== value) throw new Error(`The ${what} "${name}" is already declared`);
        known.set(name, value);
      }
    },
    get(name) {
      const value = known.get(name);
      if (value === undefined) {
        throw new Error(`Unknown ${what} "${name}": neither the host core nor a registered plugin declares it`);
      }
      return value;
    },
    find: (name) => known.get(name),
    entries: () => [...known],
  };
}
