// A directory's entries (name → address) in the spec's nesting; entries it does not hold read as null.
import { getAddress } from "viem";
import {
  DIRECTORY_FIELDS,
  type DirectoryKey,
  IDENTITY_IMPLEMENTATION_FIELDS,
  SYSTEM_IMPLEMENTATION_FIELDS,
} from "../../domain/directory/directory-keys.ts";

export type DirectoryEntries = ReadonlyMap<string, string>;

function pick<K extends DirectoryKey>(entries: DirectoryEntries, names: readonly K[]): Record<K, string | null> {
  return Object.fromEntries(
    names.map((name) => {
      const value = entries.get(name);
      return [name, value ? getAddress(value) : null];
    }),
  ) as Record<K, string | null>;
}

export function directoryFields(entries: DirectoryEntries) {
  return {
    ...pick(entries, DIRECTORY_FIELDS),
    identityImplementations: pick(entries, IDENTITY_IMPLEMENTATION_FIELDS),
    systemImplementations: pick(entries, SYSTEM_IMPLEMENTATION_FIELDS),
  };
}
