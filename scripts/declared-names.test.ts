// Permissions are strings resolved at run time (each plugin declares its own), so the compiler does not catch a
// misspelt one (an error code it does: ErrorCode). This scans the sources for the literals passed to ApiError and the
// permission checks and fails on any name neither the host core nor a plugin the platform runs declares.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CORE_PERMISSIONS } from "../host/auth/permissions.ts";
import { PLATFORM_PERMISSIONS } from "../host/auth/platform-roles.ts";
import { CORE_ERRORS } from "../host/errors/registry.ts";
import { CORE_REVERT_RULES } from "../host/mutations/revert-errors.ts";
import { composePlugins } from "../host/plugin-host.ts";
import exampleNotes from "../plugins/example-notes/index.ts";
import { pluginDeclarations } from "../test/support/plugin-declarations.ts";
import { composed as running } from "./platform-context.ts";

// What the platform runs, and the example plugin (loaded only with PLUGIN_MODULES) that sits in the tree too.
const composed = composePlugins([...running.plugins, exampleNotes]);

const ROOT = resolve(import.meta.dirname, "..");

const CODE_USES = [/\bApiError\(\s*"([^"]+)"/g, /\bthrottled\(\s*"([^"]+)"/g];
const PERMISSION_USES = [
  /\brequirePermission\(\s*"([^"]+)"/g,
  /\b(?:assertPermission|hasPermission)\([^,()]+,\s*"([^"]+)"/g,
  /\brolesGranting\(\s*"([^"]+)"/g,
  /\bpermission:\s*"([^"]+)"/g, // collection and write-route declarations
  /\bPERMISSION\s*=\s*"([^"]+)"/g,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Every literal the patterns capture, with where it is used. */
function literals(patterns: RegExp[]): { name: string; at: string }[] {
  const found: { name: string; at: string }[] = [];
  for (const file of ["host", "plugins", "scripts"].flatMap((dir) => sources(join(ROOT, dir)))) {
    const text = readFileSync(file, "utf8");
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        const line = text.slice(0, match.index).split("\n").length;
        found.push({ name: match[1], at: `${relative(ROOT, file)}:${line}` });
      }
    }
  }
  return found;
}

describe("declared names", () => {
  it("every error code thrown in host/, plugins/ and scripts/ is declared", () => {
    const uses = literals(CODE_USES);
    expect(uses.length).toBeGreaterThan(100);
    const declared = new Set([...Object.keys(CORE_ERRORS), ...composed.errors.keys()]);
    expect(uses.filter((use) => !declared.has(use.name))).toEqual([]);
  });

  it("every permission checked in host/, plugins/ and scripts/ is declared", () => {
    const uses = literals(PERMISSION_USES);
    expect(uses.length).toBeGreaterThan(50);
    const declared = new Set([
      ...Object.keys(CORE_PERMISSIONS),
      ...Object.keys(PLATFORM_PERMISSIONS),
      ...composed.permissions.keys(),
    ]);
    expect(uses.filter((use) => !declared.has(use.name))).toEqual([]);
  });

  it("every revert rule answers with a declared code", () => {
    const declared = new Set([...Object.keys(CORE_ERRORS), ...composed.errors.keys()]);
    const rules = [...Object.entries(CORE_REVERT_RULES), ...composed.revertErrors];
    expect(rules.filter(([, rule]) => !declared.has(rule.code)).map(([name]) => name)).toEqual([]);
  });

  it("the unit tests' declarations (read from the plugins' files) are what the running plugins declare", async () => {
    const running = new Map(composed.plugins.map((plugin) => [plugin.id, plugin]));
    for (const declared of await pluginDeclarations()) {
      const plugin = running.get(declared.id);
      expect(plugin, `plugins/${declared.id} is not among the plugins the platform runs`).toBeDefined();
      expect(plugin?.errors).toBe(declared.errors);
      expect(plugin?.permissions).toBe(declared.permissions);
      expect(plugin?.revertErrors).toBe(declared.revertErrors);
    }
  });
});
