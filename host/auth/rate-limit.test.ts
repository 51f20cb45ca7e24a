import { describe, expect, it } from "vitest";
import { createRateWindow } from "./rate-limit.ts";

describe("per-key request window", () => {
  it("allows the allowance, then refuses with the seconds left in the window", () => {
    const window = createRateWindow(2, 60);
    expect(window.take("k", 0)).toEqual({ allowed: true });
    expect(window.take("k", 1_000)).toEqual({ allowed: true });
    expect(window.take("k", 1_500)).toEqual({ allowed: false, retryAfterSeconds: 59 });
    expect(window.take("other", 1_500)).toEqual({ allowed: true });
    expect(window.take("k", 60_000)).toEqual({ allowed: true });
  });
});
