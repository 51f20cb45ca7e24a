// docs/ says what the code holds: every token feature's parameters, every library compliance template, every
// control type (domain/ is the source of truth; the pages are written by hand).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTROL_TYPE_IDS } from "../domain/compliance/control-types.ts";
import { featureParameterNames, TOKEN_FEATURES } from "../domain/features/feature-params.ts";
import { LIBRARY_TEMPLATES as COMPLIANCE_TEMPLATES } from "../plugins/compliance-templates/library-templates.ts";
import { LIBRARY_TEMPLATES as TOKEN_TEMPLATES } from "../plugins/tokens/templates.ts";

const page = (name: string) => readFileSync(join(resolve(import.meta.dirname, ".."), "docs", name), "utf8");

describe("docs/tokens-and-features.md", () => {
  const text = page("tokens-and-features.md");
  it.each(TOKEN_FEATURES)("documents %s with each of its parameters", (feature) => {
    const row = text.indexOf(`| \`${feature}\` |`);
    expect(row, feature).toBeGreaterThan(0);
    // The feature's rows run until the next feature's first row.
    const next = TOKEN_FEATURES.map((f) => text.indexOf(`| \`${f}\` |`)).filter((at) => at > row);
    const rows = text.slice(row, next.length ? Math.min(...next) : undefined);
    for (const name of featureParameterNames(feature)) expect(rows, `${feature}.${name}`).toContain(`\`${name}\``);
  });
  it("lists every library token template", () => {
    for (const template of TOKEN_TEMPLATES) expect(text).toContain(`| \`${template.id}\` |`);
  });
});

describe("docs/compliance.md", () => {
  const text = page("compliance.md");
  it("lists every library compliance template and every control type", () => {
    for (const template of COMPLIANCE_TEMPLATES) expect(text).toContain(`| \`${template.id}\` |`);
    for (const id of CONTROL_TYPE_IDS.filter((id) => id.endsWith("-v2") || id === "capital-raise-limit")) {
      expect(text, id).toContain(`| \`${id}\` |`);
    }
    for (const id of CONTROL_TYPE_IDS) expect(text, id).toContain(`\`${id}\``);
  });
});
