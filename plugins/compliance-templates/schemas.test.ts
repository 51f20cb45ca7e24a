// Template bodies: the field paths of every refusal (v1/v2 mixing, params, repeats), defaults, and the library's
// templates passing the same validation as an organisation's.
import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { LIBRARY_TEMPLATES } from "./library-templates.ts";
import { CreateTemplateBodySchema, moduleSetVersionOf, UpdateTemplateBodySchema } from "./schemas.ts";

const issues = (body: unknown, schema: z.ZodType = CreateTemplateBodySchema) => {
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => i.path.join("."));
};
const KYC = { expression: [{ nodeType: "TOPIC", topic: "KYC" }] };

describe("compliance template bodies", () => {
  it("creates a current-version draft body with defaults", () => {
    const body = CreateTemplateBodySchema.parse({ name: " EU ", modules: [{ typeId: "capped-v2" }] });
    expect(body).toEqual({
      name: "EU",
      description: "",
      jurisdictions: [],
      modules: [{ typeId: "capped-v2" }],
      requiredControls: [],
    });
    expect(moduleSetVersionOf(body)).toBe(2);
    expect(moduleSetVersionOf({ moduleSetVersion: 1 })).toBe(1);
    expect(moduleSetVersionOf({ isLegacy: true })).toBe(1);
    expect(moduleSetVersionOf({ isLegacy: false })).toBe(2);
  });

  it("refuses controls of the other module set at their field path", () => {
    expect(issues({ name: "x", modules: [{ typeId: "country-allow-list" }] })).toEqual(["modules.0.typeId"]);
    expect(
      issues({
        name: "x",
        modules: [{ typeId: "identity-verification-v2", params: KYC }],
        requiredControls: ["transfer-approval"],
      }),
    ).toEqual(["requiredControls.0"]);
    expect(
      issues({
        name: "x",
        moduleSetVersion: 1,
        modules: [{ typeId: "transfer-approval" }, { typeId: "capped-v2" }],
        requiredControls: ["capped-v2"],
      }),
    ).toEqual(["modules.1.typeId", "requiredControls.0"]);
    expect(
      issues({ name: "x", isLegacy: true, modules: [{ typeId: "investor-count", params: { maxInvestors: 5 } }] }),
    ).toEqual([]);
    expect(issues({ name: "x", isLegacy: true, moduleSetVersion: 2 })).toEqual(["isLegacy"]);
    expect(issues({ name: "x", moduleSetVersion: 3 })).toEqual(["moduleSetVersion"]);
  });

  it("checks params against the control catalogue at modules.N.params", () => {
    expect(
      issues({
        name: "x",
        modules: [
          { typeId: "time-lock-v2", params: {} },
          { typeId: "capped-v2", params: { maxSupply: "0" } },
        ],
      }),
    ).toEqual(["modules.0.params.lockDuration", "modules.1.params.maxSupply"]);
    expect(
      issues({ name: "x", modules: [{ typeId: "country-allow-list-v2", params: { countries: [56, 56] } }] }),
    ).toEqual(["modules.0.params.countries.1"]);
    expect(issues({ name: "x", modules: [{ typeId: "capped-v2", params: { maxSupply: "1", extra: 1 } }] })).toEqual([
      "modules.0.params",
    ]);
    expect(issues({ name: "x", modules: [{ typeId: "no-such-control" }] })).toEqual(["modules.0.typeId"]);
    expect(issues({ name: "x", modules: [{ typeId: "capped-v2", parameters: {} }] })).toEqual(["modules.0"]);
  });

  it("refuses repeats, required controls outside the modules, GLOBAL as a jurisdiction, unknown fields", () => {
    expect(
      issues({
        name: "x",
        jurisdictions: ["de", "DE", "Global", "E U"],
        modules: [{ typeId: "capped-v2" }, { typeId: "capped-v2" }],
        requiredControls: ["capped-v2", "capped-v2", "time-lock-v2"],
      }).sort(),
    ).toEqual([
      "jurisdictions.1",
      "jurisdictions.2",
      "jurisdictions.3",
      "modules.1.typeId",
      "requiredControls.1",
      "requiredControls.2",
    ]);
    expect(issues({ name: "" })).toEqual(["name"]);
    expect(issues({ name: "x", isDraft: false })).toEqual([""]);
    expect(issues({ name: "x", modules: Array.from({ length: 33 }, () => ({ typeId: "capped-v2" })) })).toContain(
      "modules",
    );
  });

  it("leaves the module set to the stored template on update", () => {
    const legacy = {
      name: "x",
      modules: [{ typeId: "country-allow-list", params: { countries: [276] } }],
      requiredControls: ["country-allow-list"],
    };
    expect(issues(legacy, UpdateTemplateBodySchema)).toEqual([]);
    expect(issues({ ...legacy, moduleSetVersion: 1 }, UpdateTemplateBodySchema)).toEqual([]);
    expect(issues({ ...legacy, isLegacy: true }, UpdateTemplateBodySchema)).toEqual([""]);
    expect(issues({ ...legacy, requiredControls: ["capped-v2"] }, UpdateTemplateBodySchema)).toEqual([
      "requiredControls.0",
    ]);
  });

  it.each(LIBRARY_TEMPLATES.map((t) => [t.id, t] as const))(
    "library template %s is a valid template",
    (_, template) => {
      const { id, ...content } = template;
      expect(issues(content)).toEqual([]);
      expect(CreateTemplateBodySchema.parse(content).modules).toEqual(template.modules);
      expect(content.jurisdictions.every((j) => j === j.toUpperCase())).toBe(true);
    },
  );
});
