// Settings are declared, not read ad hoc: host/, plugins/, src/ and domain/ read the environment only in the
// configuration loaders, host/config.ts (the core's and each plugin's settings schema) and src/indexer-env.ts (the
// indexer's own process, see there). A plugin reads its settings as ctx.settings; the test/ and bench/ harnesses,
// scripts/ (process entry points) and the unit tests beside the code are not checked.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const CHECKED = ["host", "plugins", "src", "domain"];
const LOADERS = new Set(["host/config.ts", "src/indexer-env.ts"]);

/** `process.env`, `process["env"]`, `{ env } = process` and an import of node:process's env. */
const ENV_READ =
  /\bprocess\s*(?:\.\s*env\b|\[\s*["'`]env["'`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b|from\s*["'](?:node:)?process["']/;

const sourceFiles = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.[cm]?[jt]s$/.test(e.name) && !/\.test\.[cm]?[jt]s$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));

/** Each line of `text` that reads the environment, as "file:line: text". */
const envReads = (file: string, text: string) =>
  text.split("\n").flatMap((line, i) => (ENV_READ.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));

describe("environment reads", () => {
  it("host/, plugins/, src/ and domain/ read the environment only in the configuration loaders", () => {
    const reads = CHECKED.flatMap(sourceFiles)
      .filter((file) => !LOADERS.has(file))
      .flatMap((file) => envReads(file, readFileSync(join(ROOT, file), "utf8")));
    expect(reads, "declare the setting in its owner's schema (host/config.ts or plugins/<name>/settings.ts)").toEqual(
      [],
    );
  });

  it("the check sees every form of a read", () => {
    for (const line of [
      "const x = process.env.FOO;",
      'const x = process["env"].FOO;',
      "const { env } = process;",
      'import { env } from "node:process";',
    ])
      expect(envReads("plugins/x/y.ts", line)).toEqual([`plugins/x/y.ts:1: ${line}`]);
    expect(envReads("plugins/x/y.ts", "ctx.settings.FOO; // no environment here")).toEqual([]);
  });

  it("the loaders exist (a renamed loader must be renamed here too)", () => {
    for (const file of LOADERS) expect(envReads(file, readFileSync(join(ROOT, file), "utf8"))).not.toEqual([]);
  });
});
