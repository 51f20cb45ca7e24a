// The guide stays a guide: README within 20 KB, and README, docs/ and the other guides name only what a clone has
// (no path outside the repository, every relative link and its #anchor resolving).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(dir, name));
}
const GUIDES = ["README.md", "bench/README.md", "plugins/README.md", ...markdownUnder("docs")];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
const anchorsOf = (text: string) =>
  new Set(
    text
      .replace(/```[\s\S]*?```/g, "")
      .split("\n")
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, ""))),
  );

/** Markdown link targets outside code blocks: [text](target). */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

describe("README and docs/", () => {
  it("README.md is at most 20 KB", () => {
    expect(statSync(join(ROOT, "README.md")).size).toBeLessThanOrEqual(20_480);
  });

  it("has docs/ pages", () => {
    expect(GUIDES.length).toBeGreaterThan(10);
  });

  for (const file of GUIDES) {
    it(`${file} names nothing outside the repository, and its relative links resolve`, () => {
      const text = readFileSync(join(ROOT, file), "utf8");
      expect(text).not.toMatch(/\.\.\/shared|\/work\/|\/home\/|file:\/\//);
      for (const link of linksOf(text)) {
        if (/^(https?:|mailto:)/.test(link)) continue;
        const [path, anchor] = link.split("#");
        const target = path === "" ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
        expect(relative(ROOT, target).startsWith(".."), `${file}: ${link} leaves the repository`).toBe(false);
        expect(existsSync(target), `${file}: ${link} does not exist`).toBe(true);
        if (anchor && target.endsWith(".md")) {
          expect(anchorsOf(readFileSync(target, "utf8")).has(anchor), `${file}: ${link} has no such heading`).toBe(
            true,
          );
        }
      }
    });
  }
});
