// The plugins' declared names read from their declaration files alone (`plugins/<id>/errors.ts` → ERRORS,
// `permissions.ts` → PERMISSIONS, `revert-errors.ts` → REVERT_ERRORS), without importing their routes: importing
// every plugin costs seconds, which each unit test file would pay. scripts/declared-names.test.ts checks that these
// are exactly what the plugins the platform runs declare.
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Plugin } from "../../host/plugin.ts";

const PLUGINS_DIR = resolve(import.meta.dirname, "../../plugins");

const FILES = [
  ["errors", "errors.ts", "ERRORS"],
  ["permissions", "permissions.ts", "PERMISSIONS"],
  ["revertErrors", "revert-errors.ts", "REVERT_ERRORS"],
] as const;

/** One declarations-only plugin per folder of plugins/ (its folder name is its id). */
export async function pluginDeclarations(): Promise<Plugin[]> {
  const folders = readdirSync(PLUGINS_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const declared: Plugin[] = [];
  for (const { name: id } of folders) {
    const plugin: Plugin = { id };
    for (const [field, file, exported] of FILES) {
      const path = join(PLUGINS_DIR, id, file);
      if (existsSync(path)) Object.assign(plugin, { [field]: (await import(path))[exported] });
    }
    declared.push(plugin);
  }
  return declared;
}
