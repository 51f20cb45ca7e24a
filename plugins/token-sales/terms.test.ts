import { describe, expect, it } from "vitest";
import { priceOf, saleStatus, termsProblem } from "./terms.ts";

const terms = { priceWad: 25n * 10n ** 17n, hardCap: 1000n, softCap: 400n, startDate: 100n, endDate: 200n };

describe("token sale terms", () => {
  it("prices an amount rounding up, as priceOf does", () => {
    expect(priceOf(2n, terms.priceWad)).toBe(5n);
    expect(priceOf(3n, terms.priceWad)).toBe(8n);
    expect(priceOf(1n, 1n)).toBe(1n);
    expect(priceOf(0n, terms.priceWad)).toBe(0n);
  });

  it("tells the status from the chain's time and the amount sold", () => {
    expect(saleStatus({ ...terms, sold: 0n }, 99n)).toBe("UPCOMING");
    expect(saleStatus({ ...terms, sold: 0n }, 100n)).toBe("OPEN");
    expect(saleStatus({ ...terms, sold: 1000n }, 200n)).toBe("SOLD_OUT");
    expect(saleStatus({ ...terms, sold: 400n }, 201n)).toBe("ENDED_SUCCESS");
    expect(saleStatus({ ...terms, sold: 399n }, 201n)).toBe("ENDED_REFUNDING");
  });

  it("refuses terms the contract would refuse", () => {
    expect(termsProblem(terms, 150n)).toBeNull();
    expect(termsProblem({ ...terms, softCap: 1001n }, 0n)).toMatch(/softCap/);
    expect(termsProblem({ ...terms, startDate: 200n }, 0n)).toMatch(/startDate/);
    expect(termsProblem(terms, 200n)).toMatch(/endDate/);
    expect(termsProblem({ ...terms, priceWad: 0n }, 0n)).toMatch(/priceWad/);
  });
});
