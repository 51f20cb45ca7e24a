import { describe, expect, it } from "vitest";
import { readyIn } from "./bundle-pace.ts";

describe("when a bundling run sends (bundle-pace.ts)", () => {
  const pace = { targetSize: 64, maxWaitMs: 250, fillWaitMs: 1000 };

  it("waits for the oldest operation to have waited the short wait, unless a bundle's worth waits", () => {
    expect(readyIn({ count: 3, oldestAgeMs: 100 }, pace)).toBe(150);
    expect(readyIn({ count: 64, oldestAgeMs: 5 }, pace)).toBe(0);
  });

  it("sends a trickle after the short wait: arriving as they did, the operations would not fill the bundle", () => {
    expect(readyIn({ count: 3, oldestAgeMs: 300 }, pace)).toBe(0);
    expect(readyIn({ count: 10, oldestAgeMs: 250 }, pace)).toBe(0); // 40 a second: 40 by the fill wait
  });

  it("lets the bundle fill while operations arrive fast enough to fill it by the fill wait, no longer", () => {
    expect(readyIn({ count: 20, oldestAgeMs: 250 }, pace)).toBe(750); // 80 a second: 80 by the fill wait
    expect(readyIn({ count: 40, oldestAgeMs: 600 }, pace)).toBe(400);
    expect(readyIn({ count: 20, oldestAgeMs: 600 }, pace)).toBe(0); // they stopped coming
    expect(readyIn({ count: 63, oldestAgeMs: 1000 }, pace)).toBe(0);
  });

  it("never waits less than the short wait, whatever the fill wait", () => {
    expect(readyIn({ count: 3, oldestAgeMs: 100 }, { ...pace, fillWaitMs: 0 })).toBe(150);
    expect(readyIn({ count: 60, oldestAgeMs: 260 }, { ...pace, fillWaitMs: 0 })).toBe(0);
  });

  it("has nothing to wait for when nothing is pending", () => {
    expect(readyIn({ count: 0, oldestAgeMs: null }, pace)).toBe(0);
  });
});
