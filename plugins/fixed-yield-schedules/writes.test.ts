import { describe, expect, it } from "vitest";
import { MAX_PERIODS } from "../../domain/fixed-yield/periods.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { assertTerms, type CreateInput } from "./writes.ts";

const DAY = 86_400_000;
const terms = (change: Partial<CreateInput> = {}): CreateInput => ({
  tokenAddress: "0x00000000000000000000000000000000000000a1",
  rateBps: 500,
  interval: "DAILY",
  startDate: new Date("2030-01-01T00:00:00Z"),
  endDate: new Date("2030-01-31T00:00:00Z"),
  denominationAsset: "0x00000000000000000000000000000000000000b2",
  ...change,
});
const refusal = (input: CreateInput) => {
  try {
    assertTerms(input);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, details: error.details };
    throw error;
  }
  return undefined;
};

describe("assertTerms", () => {
  it("accepts an end after the start with at most MAX_PERIODS periods, the last one partial", () => {
    expect(refusal(terms())).toBeUndefined();
    const start = terms().startDate.getTime();
    expect(refusal(terms({ endDate: new Date(start + MAX_PERIODS * DAY) }))).toBeUndefined();
    expect(refusal(terms({ endDate: new Date(start + 1000) }))).toBeUndefined();
  });

  it("refuses an end not after the start, naming endDate", () => {
    for (const endDate of [terms().startDate, new Date(terms().startDate.getTime() - DAY)]) {
      expect(refusal(terms({ endDate }))).toEqual({
        code: "BAD_REQUEST",
        details: { issues: [{ path: "endDate", message: "must be after startDate" }] },
      });
    }
  });

  it("refuses one period too many, counting a partial last period", () => {
    const start = terms().startDate.getTime();
    const issue = { path: "endDate", message: `must leave at most ${MAX_PERIODS} DAILY periods after startDate` };
    expect(refusal(terms({ endDate: new Date(start + MAX_PERIODS * DAY + 1000) }))).toEqual({
      code: "BAD_REQUEST",
      details: { issues: [issue] },
    });
    // The same span is few enough periods when they are longer.
    expect(refusal(terms({ interval: "WEEKLY", endDate: new Date(start + MAX_PERIODS * DAY + 1000) }))).toBeUndefined();
  });

  it("refuses a start at or before 1970 before anything else", () => {
    expect(refusal(terms({ startDate: new Date(0), endDate: new Date(-DAY) }))?.details).toEqual({
      issues: [{ path: "startDate", message: "must be in the future" }],
    });
  });
});
