import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.ts";
import { parsePrefer, preferenceApplied, prefersStrictHandling } from "./prefer.ts";

describe("Prefer", () => {
  it("reads wait and respond-async, ignoring other preferences", () => {
    expect(parsePrefer(undefined)).toEqual({ respondAsync: false });
    expect(parsePrefer("wait=10")).toEqual({ respondAsync: false, waitSeconds: 10 });
    expect(parsePrefer("respond-async, wait=99")).toEqual({ respondAsync: true, waitSeconds: 99 });
    expect(parsePrefer("return=minimal, Respond-Async")).toEqual({ respondAsync: true });
    expect(preferenceApplied({ respondAsync: true, waitSeconds: 5 })).toBe("respond-async, wait=5");
    expect(preferenceApplied({ respondAsync: false })).toBeUndefined();
  });

  it("refuses a wait outside 5 to 99 seconds", () => {
    for (const bad of ["wait=4", "wait=100", "wait=abc", "wait=", "wait=5.5"])
      expect(() => parsePrefer(bad)).toThrow(ApiError);
  });

  it("reads handling=strict (the opt-in to INDEXER_REINDEXING without waiting) among other preferences", () => {
    for (const yes of ["handling=strict", "wait=10, Handling=Strict", 'respond-async, handling="strict"'])
      expect(prefersStrictHandling(yes), yes).toBe(true);
    for (const no of [undefined, "", "handling=lenient", "wait=10", "strict", "handling"])
      expect(prefersStrictHandling(no), String(no)).toBe(false);
  });
});
