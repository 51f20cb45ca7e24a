// PLUGIN_MODULES: comma-separated module paths (relative to the project root), each exporting a plugin as its
// default, loaded in addition to plugins/index.ts (e.g. a plugin developed out of tree, or the example plugin).
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "../host/plugin.ts";

const ROOT = resolve(import.meta.dirname, "..");

export async function loadPluginModules(list: string | undefined): Promise<Plugin[]> {
  const paths = (list ?? "")
    .split(",")
    .map((path) => path.trim())
    .filter(Boolean);
  const loaded: Plugin[] = [];
  for (const path of paths) {
    const url = pathToFileURL(isAbsolute(path) ? path : resolve(ROOT, path)).href;
    const module = (await import(url)) as { default?: Plugin };
    if (!module.default?.id) throw new Error(`PLUGIN_MODULES: ${path} has no plugin as its default export`);
    loaded.push(module.default);
  }
  return loaded;
}
