// DESIGN.md's import rules, checked on every .ts file's imports (the TypeScript compiler's own import scanner: static,
// type-only, side-effect and dynamic imports and re-exports):
// - src/ (the indexer) imports only ponder, viem, abis/, domain/ and its own files (hono for Ponder's API entry);
// - domain/ only zod, viem and its own files;
// - host/ never imports a plugin;
// - a plugin never imports another plugin;
// - scripts/ use a plugin only through its public entry, plugins/<name>/index.ts (or the list, plugins/index.ts);
// - and, beyond imports, a plugin's code names no table another plugin's migrations create (it reads them through
//   the capability the owner provides).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

/** The .ts files under `dir` (tests included unless `withTests` is false). */
function sourceFiles(dir: string, withTests = true): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && (withTests || !e.name.endsWith(".test.ts")))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((file) => !file.includes("node_modules"));
}

/** Every module specifier a file's text imports or re-exports. */
function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

const specifiers = (file: string) => specifiersOf(readFileSync(join(ROOT, file), "utf8"));

/** Where a relative specifier of `file` lands, from the repository root (e.g. `plugins/tokens/tables.ts`). */
const target = (specifier: string, file: string) => relative(ROOT, resolve(ROOT, dirname(file), specifier));

/** The top folder of the repository a relative specifier lands in. */
const landsIn = (specifier: string, file: string) => target(specifier, file).split("/")[0];

/** The plugin a repository path belongs to (`plugins/<name>/…`), or undefined (plugins/index.ts is the list). */
const pluginOf = (path: string) => /^plugins\/([^/]+)\//.exec(path)?.[1];

type Rule = (specifier: string, file: string) => boolean;

/** The imports of `files` that `allowed` refuses, as "file: specifier". */
function offending(files: string[], allowed: Rule): string[] {
  return files.flatMap((file) =>
    specifiers(file)
      .filter((s) => !allowed(s, file))
      .map((s) => `${file}: ${s}`),
  );
}

const srcRule: Rule = (s, file) =>
  s.startsWith(".")
    ? ["src", "abis", "domain"].includes(landsIn(s, file))
    : s.startsWith("ponder:") || ["ponder", "viem", "hono"].includes(s);
const domainRule: Rule = (s, file) => (s.startsWith(".") ? landsIn(s, file) === "domain" : s === "zod" || s === "viem");
const hostRule: Rule = (s, file) => !s.startsWith(".") || landsIn(s, file) !== "plugins";
/** A repository path that is a plugin's public entry (plugins/<name>/index.ts) or the plugin list (plugins/index.ts). */
const isPublicEntry = (path: string) => /^plugins\/(?:[^/]+\/)?index\.ts$/.test(path);
/**
 * A plugin's code reaches no other plugin's folder (nor the plugin list); a test beside it may compose plugins
 * through their public entries (e.g. the AsyncAPI document of all of them), never reach their internals.
 */
const pluginRule: Rule = (s, file) => {
  if (!s.startsWith(".") || landsIn(s, file) !== "plugins") return true;
  const own = pluginOf(file);
  if (own === undefined || pluginOf(target(s, file)) === own) return true;
  return file.endsWith(".test.ts") && isPublicEntry(target(s, file));
};
/** scripts/ reach a plugin only through plugins/index.ts or plugins/<name>/index.ts. */
const scriptsRule: Rule = (s, file) =>
  !s.startsWith(".") || landsIn(s, file) !== "plugins" || isPublicEntry(target(s, file));

/** Each table a plugin's migrations create (`createTable("<name>")`), with its owner. */
function pluginTables(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of sourceFiles("plugins", false).filter((f) => f.endsWith("/migrations.ts"))) {
    for (const [, table] of readFileSync(join(ROOT, file), "utf8").matchAll(/createTable\("([a-z_]+)"\)/g)) {
      owners.set(table, pluginOf(file)!);
    }
  }
  return owners;
}

const camel = (table: string) => table.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The tables of other plugins a file's text names: `platform.<table>` in SQL, or the Kysely table in a query. */
function foreignTables(text: string, own: string | undefined, owners: Map<string, string>): string[] {
  return [...owners]
    .filter(([, owner]) => owner !== own)
    .map(([table]) => table)
    .filter(
      (table) =>
        new RegExp(`\\bplatform\\.${table}\\b`).test(text) ||
        new RegExp(
          `\\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin)\\(\\s*"${camel(table)}\\b`,
        ).test(text),
    );
}

describe("import rules", () => {
  it("src/ imports only ponder, viem, abis/, domain/ and its own files", () => {
    expect(offending(sourceFiles("src", false), srcRule)).toEqual([]);
  });

  it("domain/ imports only zod, viem and its own files", () => {
    expect(offending(sourceFiles("domain", false), domainRule)).toEqual([]);
  });

  it("host/ never imports a plugin", () => {
    expect(offending(sourceFiles("host"), hostRule)).toEqual([]);
  });

  it("a plugin never imports another plugin", () => {
    expect(offending(sourceFiles("plugins"), pluginRule)).toEqual([]);
  });

  it("a plugin names no other plugin's table", () => {
    const owners = pluginTables();
    expect(owners.get("webhook_deliveries")).toBe("webhooks");
    const reads = sourceFiles("plugins", false).flatMap((file) =>
      foreignTables(readFileSync(join(ROOT, file), "utf8"), pluginOf(file), owners).map((t) => `${file}: ${t}`),
    );
    expect(reads).toEqual([]);
    expect(foreignTables("sql`select * from platform.webhook_deliveries`", "monitoring", owners)).toEqual([
      "webhook_deliveries",
    ]);
    expect(foreignTables('db.selectFrom("complianceTemplates")', "tokens", owners)).toEqual(["compliance_templates"]);
  });

  it("scripts/ use a plugin only through its index.ts", () => {
    expect(offending(sourceFiles("scripts", false), scriptsRule)).toEqual([]);
  });

  it("the checks see every kind of import, and each rule refuses what it should", () => {
    const kinds = `import a from "./a.ts";\nimport type { B } from "./b.ts";\nimport "./c.ts";\nexport * from "./d.ts";\nexport { e } from "./e.ts";\nconst f = await import("./f.ts");`;
    expect(specifiersOf(kinds)).toEqual(["./a.ts", "./b.ts", "./c.ts", "./d.ts", "./e.ts", "./f.ts"]);
    expect(landsIn("../host/features/x.ts", "src/Token.ts")).toBe("host");
    expect(srcRule("../../plugins/tokens/x.ts", "src/api/index.ts")).toBe(false);
    expect(domainRule("../host/logger.ts", "domain/x.ts")).toBe(false);
    expect(hostRule("../plugins/tokens/index.ts", "host/app.ts")).toBe(false);
    expect(pluginRule("../compliance-templates/tables.ts", "plugins/tokens/tables.ts")).toBe(false);
    expect(pluginRule("../compliance-templates/index.ts", "plugins/tokens/tables.ts")).toBe(false);
    expect(pluginRule("./tables.ts", "plugins/tokens/routes.ts")).toBe(true);
    expect(pluginRule("./tokens/index.ts", "plugins/index.ts")).toBe(true);
    expect(pluginRule("../index.ts", "plugins/webhooks/asyncapi.test.ts")).toBe(true);
    expect(pluginRule("../tokens/tables.ts", "plugins/webhooks/asyncapi.test.ts")).toBe(false);
    expect(scriptsRule("../plugins/access/members.ts", "scripts/cli.ts")).toBe(false);
    expect(scriptsRule("../plugins/access/index.ts", "scripts/cli.ts")).toBe(true);
    expect(scriptsRule("../plugins/index.ts", "scripts/platform-context.ts")).toBe(true);
  });
});
