import { describe, expect, it } from "vitest";
import { completedPeriods, schedulePeriods, totalPeriods } from "./periods.ts";

const DAY = 86_400n;
const terms = { startDate: 1_000n, endDate: 1_000n + 2n * DAY + 3_600n, intervalSeconds: DAY };

describe("fixed yield periods", () => {
  it("cuts the last period at the end date", () => {
    expect(totalPeriods(terms)).toBe(3);
    const periods = schedulePeriods(terms, 0n);
    expect(periods.map((p) => [p.start, p.end])).toEqual([
      [1_000n, 1_000n + DAY],
      [1_000n + DAY, 1_000n + 2n * DAY],
      [1_000n + 2n * DAY, terms.endDate],
    ]);
    expect(totalPeriods({ ...terms, endDate: 1_000n + 2n * DAY })).toBe(2);
  });

  it("counts a period completed once its end has passed, as the contract does", () => {
    expect(completedPeriods(terms, 1_000n)).toBe(0);
    expect(completedPeriods(terms, 1_000n + DAY - 1n)).toBe(0);
    expect(completedPeriods(terms, 1_000n + DAY)).toBe(1);
    expect(completedPeriods(terms, terms.endDate)).toBe(2);
    expect(completedPeriods(terms, terms.endDate + 1n)).toBe(3);
    expect(schedulePeriods(terms, 1_000n + DAY).map((p) => p.completed)).toEqual([true, false, false]);
  });
});
