import { describe, expect, it } from "vitest";
import { featureConfigSchema } from "../../domain/features/feature-params.ts";
import { checkFeatureRules } from "../../domain/features/feature-rules.ts";
import { findTemplate, LIBRARY_TEMPLATES } from "./templates.ts";

describe("library token templates", () => {
  it("offer at least bond, equity, fund, stablecoin and deposit", () => {
    for (const id of ["bond", "equity", "fund", "stablecoin", "deposit"]) expect(findTemplate(id)?.isSystem).toBe(true);
  });

  it("allow every feature they require, and their required features obey the feature rules", () => {
    for (const t of LIBRARY_TEMPLATES) {
      for (const f of t.requiredFeatures) expect(t.allowedFeatures, `${t.id} ${f}`).toContain(f);
      expect(checkFeatureRules(t.requiredFeatures), t.id).toBeUndefined();
    }
  });

  it("give defaults only for allowed features and only known parameters", () => {
    for (const t of LIBRARY_TEMPLATES) {
      for (const [f, config] of Object.entries(t.defaults.featureConfigs)) {
        expect(t.allowedFeatures, `${t.id} ${f}`).toContain(f);
        const known = featureConfigSchema(f as never).keyof().options as string[];
        for (const key of Object.keys(config ?? {})) expect(known, `${t.id} ${f}.${key}`).toContain(key);
      }
    }
  });
});
