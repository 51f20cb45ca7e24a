// AddonRegistry.AddonKind as the API names it: the ABI's uint8 is the index (0 unknown, 1 factory, 2 singleton).
export const ADDON_KINDS = ["unknown", "factory", "singleton"] as const;
export type AddonKind = (typeof ADDON_KINDS)[number];

/** An out-of-range value (a newer contract's kind) reads as unknown. */
export function addonKindName(kind: number): AddonKind {
  return ADDON_KINDS[kind] ?? "unknown";
}
