import { describe, expect, it } from "vitest";
import { routeOverlap } from "./route-overlap.ts";

describe("routeOverlap", () => {
  it("names two plugins whose paths one request could match", () => {
    const message = routeOverlap([
      { pluginId: "tokens", method: "GET", path: "/api/v2/tokens/:address" },
      { pluginId: "templates", method: "GET", path: "/api/v2/tokens/templates" },
    ]);
    expect(message).toContain('"tokens" and "templates"');
  });

  it("lets paths of one plugin, other methods and other lengths be", () => {
    expect(
      routeOverlap([
        { pluginId: "tokens", method: "GET", path: "/api/v2/tokens/:address" },
        { pluginId: "tokens", method: "GET", path: "/api/v2/tokens/templates" },
        { pluginId: "other", method: "POST", path: "/api/v2/tokens/:address" },
        { pluginId: "other", method: "GET", path: "/api/v2/tokens/:address/holders" },
        { pluginId: "other", method: "ALL", path: "/api/v2/tokens/:address" },
      ]),
    ).toBeUndefined();
  });
});
