import { describe, expect, it } from "vitest";
import { readyIn } from "./bundle-pace.ts";

describe("when a bundling run sends (bundle-pace.ts)", () => {
  const pace = { targetSize: 16, maxWaitMs: 250 };

  it("waits for the oldest operation to have waited the most, unless enough operations wait", () => {
    expect(readyIn({ count: 3, oldestAgeMs: 100 }, pace)).toBe(150);
    expect(readyIn({ count: 3, oldestAgeMs: 300 }, pace)).toBe(0);
    expect(readyIn({ count: 16, oldestAgeMs: 5 }, pace)).toBe(0);
  });

  it("has nothing to wait for when nothing is pending", () => {
    expect(readyIn({ count: 0, oldestAgeMs: null }, pace)).toBe(0);
  });
});
