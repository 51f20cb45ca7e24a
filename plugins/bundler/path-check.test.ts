import { describe, expect, it } from "vitest";
import { opcodeRuleCaches, pathCheck } from "./opcode-rules.ts";

describe("a validation path's check", () => {
  it("runs once for validations of one path arriving together, and not again once clean", async () => {
    const caches = opcodeRuleCaches();
    let runs = 0;
    const check = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { clean: true };
    };
    const results = await Promise.all(Array.from({ length: 8 }, () => pathCheck(caches, "p", check)));
    expect(results).toEqual(Array(8).fill(undefined));
    expect(runs).toBe(1);
    await pathCheck(caches, "p", check);
    expect(runs).toBe(1);
    expect(caches.pathChecks.size).toBe(0);
  });

  it("lets each validation check itself when the check in flight found something", async () => {
    const caches = opcodeRuleCaches();
    let runs = 0;
    const check = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { clean: false, finding: `finding ${runs}` };
    };
    const results = await Promise.all(Array.from({ length: 3 }, () => pathCheck(caches, "q", check)));
    expect(runs).toBe(3);
    expect(results.every((result) => result?.startsWith("finding"))).toBe(true);
    expect(caches.cleanPaths.has("q")).toBe(false);
  });
});
