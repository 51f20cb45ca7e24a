// A fixed yield schedule's periods as its contract counts them (contracts/addons/FixedYieldSchedule.sol):
// `intervalSeconds` each from `startDate`, the last one cut at `endDate`; a period is completed once its end has
// passed (all of them once `endDate` has).

export const FIXED_YIELD_INTERVALS = {
  DAILY: 86_400,
  WEEKLY: 7 * 86_400,
  MONTHLY: 30 * 86_400,
  QUARTERLY: 91 * 86_400,
  ANNUALLY: 365 * 86_400,
} as const;

/** The most periods the API creates a schedule with (the read lists every period and reads each completed one's yield). */
export const MAX_PERIODS = 1_000;

export type FixedYieldInterval = keyof typeof FIXED_YIELD_INTERVALS;

export interface ScheduleTerms {
  startDate: bigint;
  endDate: bigint;
  intervalSeconds: bigint;
}

export interface SchedulePeriod {
  index: number;
  /** Unix seconds. */
  start: bigint;
  end: bigint;
  completed: boolean;
}

export function totalPeriods({ startDate, endDate, intervalSeconds }: ScheduleTerms): number {
  return Number((endDate - startDate + intervalSeconds - 1n) / intervalSeconds);
}

/** How many periods have completed at `now` (unix seconds): the contract's completedPeriods(). */
export function completedPeriods(terms: ScheduleTerms, now: bigint): number {
  if (now <= terms.startDate) return 0;
  const total = totalPeriods(terms);
  if (now > terms.endDate) return total;
  return Math.min(Number((now - terms.startDate) / terms.intervalSeconds), total);
}

export function schedulePeriods(terms: ScheduleTerms, now: bigint): SchedulePeriod[] {
  const completed = completedPeriods(terms, now);
  return Array.from({ length: totalPeriods(terms) }, (_, index) => {
    const start = terms.startDate + BigInt(index) * terms.intervalSeconds;
    const end = start + terms.intervalSeconds < terms.endDate ? start + terms.intervalSeconds : terms.endDate;
    return { index, start, end, completed: index < completed };
  });
}
