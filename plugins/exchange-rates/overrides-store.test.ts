import { expect, it } from "vitest";
import { normaliseDecimal } from "./overrides-store.ts";

it("spells each override's value one way in the history", () => {
  expect(normaliseDecimal("001.50")).toBe("1.5");
  expect(normaliseDecimal("0.000")).toBe("0");
  expect(normaliseDecimal("12")).toBe("12");
  expect(normaliseDecimal("0.0100")).toBe("0.01");
});
