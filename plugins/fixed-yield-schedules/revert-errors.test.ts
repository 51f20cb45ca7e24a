import { describe, expect, it } from "vitest";
import { FixedYieldScheduleAbi } from "../../abis/FixedYieldSchedule.ts";
import { FixedYieldScheduleFactoryAbi } from "../../abis/FixedYieldScheduleFactory.ts";
import { REVERT_ERRORS } from "./revert-errors.ts";

describe("REVERT_ERRORS", () => {
  /** Each error of the schedule contracts, by name, with its arguments' names. */
  const errors = new Map<string, string[]>(
    [...FixedYieldScheduleAbi, ...FixedYieldScheduleFactoryAbi].flatMap((item) =>
      item.type === "error"
        ? [[item.name, item.inputs.map((input) => input.name as string)] as [string, string[]]]
        : [],
    ),
  );

  it("names errors the schedule contracts have, and reads only their arguments", () => {
    for (const [name, rule] of Object.entries(REVERT_ERRORS)) {
      const inputs = errors.get(name);
      expect(inputs, `${name} is not an error of FixedYieldSchedule(Factory)`).toBeDefined();
      // Each argument a distinct marker: a rule reading an argument the error lacks shows "undefined".
      const args = Object.fromEntries((inputs ?? []).map((input, i) => [input, `<arg${i}>`]));
      expect(rule.message(args), name).not.toContain("undefined");
      for (const value of Object.values(rule.details?.(args) ?? {})) {
        expect(value, name).not.toBeUndefined();
      }
    }
  });
});
