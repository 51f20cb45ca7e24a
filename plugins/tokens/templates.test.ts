import { describe, expect, it } from "vitest";
import { findTemplate, LIBRARY_TEMPLATES, undeployableFeatures } from "./templates.ts";

describe("token templates", () => {
  it("has the five library templates, each allowing what it requires", () => {
    expect(LIBRARY_TEMPLATES.map((t) => t.id).sort()).toEqual(["bond", "deposit", "equity", "fund", "stablecoin"]);
    for (const t of LIBRARY_TEMPLATES) {
      expect(t.isSystem).toBe(true);
      for (const f of t.requiredFeatures) expect(t.allowedFeatures).toContain(f);
    }
  });

  it("names the features a creation would need that cannot be deployed yet", () => {
    expect(undeployableFeatures(findTemplate("deposit")!, [])).toEqual([]);
    expect(undeployableFeatures(findTemplate("deposit")!, ["permit"])).toEqual(["permit"]);
    expect(undeployableFeatures(findTemplate("bond")!, [])).toEqual(["historical-balances", "maturity-redemption"]);
  });
});
