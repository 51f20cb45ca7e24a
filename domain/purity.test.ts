// The indexer (src/) and the domain layer stay pure: src/ imports only ponder, viem, abis/, domain/ and its own files
// (hono for Ponder's required API entry); domain/ only zod, viem and its own files. Neither reaches host/ or plugins/.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** Every module specifier a file imports or re-exports (static, side-effect and dynamic imports). */
function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const patterns = [
    /^(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gms,
    /^import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]));
}

/** The specifiers of `dir`'s files that `allowed` refuses, as "file: specifier". */
function offending(dir: string, allowed: (specifier: string, file: string) => boolean): string[] {
  return sourceFiles(dir).flatMap((file) =>
    specifiers(file)
      .filter((s) => !allowed(s, file))
      .map((s) => `${file}: ${s}`),
  );
}

/** The top folder of the repository a relative specifier lands in. */
const landsIn = (specifier: string, file: string) =>
  relative(ROOT, resolve(ROOT, dirname(file), specifier)).split("/")[0];

describe("purity", () => {
  it("src/ imports only ponder, viem, abis/, domain/ and its own files", () => {
    const packages = new Set(["ponder", "viem", "hono"]);
    const folders = new Set(["src", "abis", "domain"]);
    expect(
      offending("src", (s, file) =>
        s.startsWith(".") ? folders.has(landsIn(s, file)) : s.startsWith("ponder:") || packages.has(s),
      ),
    ).toEqual([]);
  });

  it("domain/ imports only zod, viem and its own files", () => {
    expect(
      offending("domain", (s, file) =>
        s.startsWith(".") ? landsIn(s, file) === "domain" : s === "zod" || s === "viem",
      ),
    ).toEqual([]);
  });

  it("the check sees a forbidden import", () => {
    expect(landsIn("../host/features/x.ts", "src/Token.ts")).toBe("host");
    expect(landsIn("../../plugins/tokens/x.ts", "src/api/index.ts")).toBe("plugins");
    expect(specifiers("domain/purity.test.ts")).toContain("node:fs");
  });
});
